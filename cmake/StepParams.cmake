# The per-step constant block of the flock shaders, generated from one table (src/gpu/step_params.table)
# at configure time into OUT_DIR: gpu/step_params.hpp and .cpp (the C++ struct and its writer) and
# shaders/common/StepParams.glsl (the GLSL block, embedded with the shaders). Editing the table or the
# generator re-runs the configure step; unchanged outputs are not rewritten.
function(murmur_generate_step_params table out_dir)
  find_package(Python3 REQUIRED COMPONENTS Interpreter)
  set(generator "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/generate_step_params.py")
  execute_process(COMMAND "${Python3_EXECUTABLE}" "${generator}" "${table}" "${out_dir}"
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "generating the step parameter block failed: ${err}")
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${table}" "${generator}")
endfunction()

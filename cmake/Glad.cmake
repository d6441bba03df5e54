# glad 2 loaders (GL 4.6 core + EGL 1.5), generated at configure time by Debian's offline `glad`
# generator (python3-glad) into the build tree; the output is never committed.
function(murmur_generate_glad target out_dir)
  find_program(GLAD_EXECUTABLE glad REQUIRED)
  set(stamp "${out_dir}/src/gl.c")
  if(NOT EXISTS "${stamp}")
    execute_process(
      COMMAND "${GLAD_EXECUTABLE}" --quiet --api "gl:core=4.6,egl=1.5" --out-path "${out_dir}"
              --reproducible c --loader
      RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
    if(NOT rc EQUAL 0 OR NOT EXISTS "${stamp}")
      message(FATAL_ERROR "glad generation failed (${rc}): ${err}")
    endif()
  endif()
  add_library(${target} STATIC "${out_dir}/src/gl.c" "${out_dir}/src/egl.c")
  target_include_directories(${target} SYSTEM PUBLIC "${out_dir}/include")
  target_link_libraries(${target} PUBLIC ${CMAKE_DL_LIBS})
  set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON)
endfunction()

# Embeds every shader into the binary: a generated C++ source holds a table path -> text that
# gpu::ShaderLibrary reads (and `--shader-dir` can override from disk). The shaders are the files
# under shader_dir and those generated under generated_dir (shaders/common/StepParams.glsl), each
# named by its path relative to its directory.
function(murmur_embed_shaders target shader_dir generated_dir)
  set(out "${CMAKE_CURRENT_BINARY_DIR}/generated/embedded_shaders.cpp")
  file(GLOB_RECURSE shader_files CONFIGURE_DEPENDS RELATIVE "${shader_dir}" "${shader_dir}/*.glsl")
  file(GLOB_RECURSE generated_files CONFIGURE_DEPENDS RELATIVE "${generated_dir}" "${generated_dir}/*.glsl")
  list(SORT shader_files)
  list(SORT generated_files)
  list(TRANSFORM shader_files PREPEND "${shader_dir}/" OUTPUT_VARIABLE abs_files)
  list(TRANSFORM generated_files PREPEND "${generated_dir}/" OUTPUT_VARIABLE abs_generated)
  # '|' separates the names on the command line (a ';' list would be split by the shell).
  string(REPLACE ";" "|" shader_list "${shader_files}")
  string(REPLACE ";" "|" generated_list "${generated_files}")
  add_custom_command(
    OUTPUT "${out}"
    COMMAND ${CMAKE_COMMAND} "-DSHADER_DIR=${shader_dir}" "-DFILES=${shader_list}"
            "-DGENERATED_DIR=${generated_dir}" "-DGENERATED_FILES=${generated_list}" "-DOUT=${out}"
            -P "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/EmbedShadersScript.cmake"
    DEPENDS ${abs_files} ${abs_generated} "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/EmbedShadersScript.cmake"
    COMMENT "Embedding GLSL shaders"
    VERBATIM)
  add_library(${target} STATIC "${out}")
  set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON)
endfunction()

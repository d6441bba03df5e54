# Embeds every file under shaders/ into the binary: a generated C++ source holds a table
# path -> text that gpu::ShaderLibrary reads (and `--shader-dir` can override from disk).
function(murmur_embed_shaders target shader_dir)
  file(GLOB_RECURSE shader_files CONFIGURE_DEPENDS RELATIVE "${shader_dir}" "${shader_dir}/*.glsl")
  list(SORT shader_files)
  set(out "${CMAKE_CURRENT_BINARY_DIR}/generated/embedded_shaders.cpp")
  set(abs_files "")
  foreach(f IN LISTS shader_files)
    list(APPEND abs_files "${shader_dir}/${f}")
  endforeach()
  # '|' separates the names on the command line (a ';' list would be split by the shell).
  string(REPLACE ";" "|" shader_list "${shader_files}")
  add_custom_command(
    OUTPUT "${out}"
    COMMAND ${CMAKE_COMMAND} "-DSHADER_DIR=${shader_dir}" "-DFILES=${shader_list}" "-DOUT=${out}"
            -P "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/EmbedShadersScript.cmake"
    DEPENDS ${abs_files} "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/EmbedShadersScript.cmake"
    COMMENT "Embedding GLSL shaders"
    VERBATIM)
  add_library(${target} STATIC "${out}")
  set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON)
endfunction()

# Warnings (and sanitizers) for Murmur's own targets only; generated and third-party code is exempt.
function(murmur_target_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                           -Wno-sign-conversion -Wnon-virtual-dtor -Wold-style-cast)
  if(MURMUR_WARNINGS_AS_ERRORS)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  # float-cast-overflow is not part of GCC's "undefined"; -fno-sanitize-recover makes every report
  # end the process with an error, so that a test or a replayed input fails on it.
  set(sanitizers -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all)
  if(MURMUR_SANITIZE)
    target_compile_options(${target} PRIVATE ${sanitizers} -fno-omit-frame-pointer)
    # GCC and Clang check a function's memory accesses through calls instead of inline once it has
    # more than 7,000 of them: the neighbour sweep (every batch size and both image modes inlined)
    # then ran its candidate loop 3.6x slower than with inline checks. The checks are the same.
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
      # GCC's flow analysis of sanitizer-instrumented code reports maybe-uninitialized inside
      # libstdc++ (std::function in <regex>); a false positive, so not an error in these builds.
      target_compile_options(${target} PRIVATE -Wno-maybe-uninitialized
                                               --param=asan-instrumentation-with-call-threshold=1000000)
    else()
      target_compile_options(${target} PRIVATE "SHELL:-mllvm -asan-instrumentation-with-call-threshold=1000000")
    endif()
    target_link_options(${target} PRIVATE ${sanitizers})
  endif()
  if(MURMUR_FUZZ)
    # Coverage for libFuzzer in every Murmur target (the drivers link the fuzzer itself).
    target_compile_options(${target} PRIVATE -fsanitize=fuzzer-no-link ${sanitizers})
    target_link_options(${target} PRIVATE ${sanitizers})
  endif()
endfunction()

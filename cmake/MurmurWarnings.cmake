# Warnings (and sanitizers) for Murmur's own targets only; generated and third-party code is exempt.
function(murmur_target_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                           -Wno-sign-conversion -Wnon-virtual-dtor -Wold-style-cast)
  if(MURMUR_WARNINGS_AS_ERRORS)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  if(MURMUR_SANITIZE)
    # GCC's flow analysis of sanitizer-instrumented code reports maybe-uninitialized inside
    # libstdc++ (std::function in <regex>); a false positive, so not an error in these builds.
    target_compile_options(${target} PRIVATE -fsanitize=address,undefined -fno-omit-frame-pointer
                                             -Wno-maybe-uninitialized)
    target_link_options(${target} PRIVATE -fsanitize=address,undefined)
  endif()
endfunction()

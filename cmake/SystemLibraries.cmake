# The shared libraries a release bundle leaves to the host (one list: cmake/Bundle.cmake excludes
# them from the bundle, tests/bundle/BundleTest.cmake allows them as NEEDED): glibc, the GL/EGL
# dispatch layer (libglvnd) that must come with the host's driver, and the X11 libraries a window
# needs. Regexes over file names.
set(MURMUR_SYSTEM_LIBRARIES
    # glibc 2.36+
    "^ld-linux-x86-64\\.so\\.2$" "^libc\\.so\\.6$" "^libm\\.so\\.6$" "^libmvec\\.so\\.1$"
    "^libpthread\\.so\\.0$" "^libdl\\.so\\.2$" "^librt\\.so\\.1$" "^libresolv\\.so\\.2$"
    "^linux-vdso\\.so\\.1$"
    # GL/EGL dispatch (libglvnd): the host's driver plugs in below these
    "^libEGL\\.so\\.1$" "^libOpenGL\\.so\\.0$" "^libGLX\\.so\\.0$" "^libGL\\.so\\.1$"
    "^libGLdispatch\\.so\\.0$"
    # X11 (a window only)
    "^libX11\\.so\\.6$" "^libX11-xcb\\.so\\.1$" "^libXext\\.so\\.6$" "^libXrandr\\.so\\.2$"
    "^libXinerama\\.so\\.1$" "^libXcursor\\.so\\.1$" "^libXi\\.so\\.6$" "^libXxf86vm\\.so\\.1$"
    "^libXrender\\.so\\.1$" "^libXfixes\\.so\\.3$" "^libxcb\\.so\\.1$" "^libXau\\.so\\.6$"
    "^libXdmcp\\.so\\.6$")

#!/usr/bin/env bash
# Installs, from Debian's archive, only the packages Murmur needs that are missing. Idempotent.
set -euo pipefail

packages=(
  cmake ninja-build g++ pkg-config git
  python3-glad                       # generates the GL/EGL loaders at build time
  libegl-dev libgl-dev libegl-mesa0 libgl1-mesa-dri   # EGL + OpenGL (Mesa llvmpipe without a GPU)
  libglfw3-dev libimgui-dev          # the demo window and its panel
  libhwy-dev                         # Google Highway: the CPU reference's SIMD candidate test
  libglm-dev libfmt-dev libtomlplusplus-dev libcli11-dev libstb-dev
  zlib1g-dev                         # the CRC of the text chunks of PNG frames
  nlohmann-json3-dev                 # murmur bench reads the benchmark JSON
  libhdf5-dev                        # trajectories in HDF5 (H5MD): murmur run --record, the library
  libopenmpi-dev openmpi-bin         # murmur sweep across the ranks of an MPI job (mpirun)
  pybind11-dev python3-pybind11 python3-dev python3-numpy   # the Python module murmur
  python3-pytest python3-h5py        # its tests (pytest from CTest), reading trajectories back
  python3-matplotlib                 # bench/report.py's charts
  libgtest-dev libbenchmark-dev
  glslang-tools                      # glslangValidator: the shader validation test, SPIR-V for shader-stats
  mesa-vulkan-drivers libvulkan-dev spirv-tools   # scripts/shader-stats.sh: RADV's null device (ACO statistics)
  xvfb xauth xdotool                 # a virtual display for the window tests, synthetic key taps
  ffmpeg                             # demo --video (an ffmpeg child fed raw frames), ffprobe in its test
  clang-14 libclang-rt-14-dev libomp-14-dev   # libFuzzer (and OpenMP for clang) for scripts/fuzz.sh
  clang-format-14                    # scripts/check-format.sh: the Formatting test
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"

#!/usr/bin/env bash
# The installed package, far from the build tree: `cmake --install` into a fresh prefix; every public
# header compiles alone with only the prefix on the include path and pulls in no GL, glad, glm,
# toml++, Highway, ImGui, fmt or HDF5 header; examples/cpp configures with find_package(Murmur),
# builds and runs against the prefix's libmurmur.so; the Python module imports from the prefix.
#   check_package.sh BUILD_DIR SOURCE_DIR PYTHON WITH_PYTHON(0|1)
set -euo pipefail
build=$1 source=$2 python=$3 with_python=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" > "$work/install.log"

forbidden='glad|/GL/|/EGL/|glm/|toml\+\+|hwy/|imgui|fmt/|hdf5|GLFW'
for header in "$prefix"/include/murmur/*.hpp; do
  name=${header#"$prefix/include/"}
  printf '#include <%s>\n' "$name" > "$work/one.cpp"
  c++ -std=c++20 -fsyntax-only -Wall -Wextra -Wpedantic -I"$prefix/include" "$work/one.cpp" ||
    { echo "FAIL: $name does not compile alone"; exit 1; }
  deps=$(c++ -std=c++20 -I"$prefix/include" -M "$work/one.cpp")
  if grep -Eq "$forbidden" <<< "$deps"; then
    echo "FAIL: $name includes a private dependency:"; grep -Eo "[^ ]*($forbidden)[^ ]*" <<< "$deps" | head; exit 1
  fi
  echo "header ok: $name"
done

# README's smallest use, as written there, against the prefix alone.
sed -n '/^#include <murmur\/murmur.hpp>$/,/^```$/p' "$source/README.md" | sed '$d' > "$work/readme.body"
[ "$(wc -l < "$work/readme.body")" -eq 4 ] || { echo "FAIL: README's smallest use not found"; exit 1; }
{ head -1 "$work/readme.body"; echo 'int main() {'; tail -n +2 "$work/readme.body"; echo 'return n == 10000 ? 0 : 1; }'; } \
  > "$work/readme.cpp"
c++ -std=c++20 -Wall -Wextra -I"$prefix/include" "$work/readme.cpp" -L"$prefix/lib" -lmurmur \
  -Wl,-rpath,"$prefix/lib" -o "$work/readme" || { echo "FAIL: README's smallest use does not compile"; exit 1; }
"$work/readme" || { echo "FAIL: README's smallest use did not step 10,000 boids"; exit 1; }
echo "readme ok"

cmake -S "$source/examples/cpp" -B "$work/example" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" > "$work/configure.log" ||
  { cat "$work/configure.log"; exit 1; }
cmake --build "$work/example" > "$work/build.log" || { cat "$work/build.log"; exit 1; }
if ldd "$work/example/murmuration_measures" | grep libmurmur | grep -qv "$prefix/lib/"; then
  echo "FAIL: the example links a libmurmur.so outside the prefix"; ldd "$work/example/murmuration_measures"; exit 1
fi
output=$("$work/example/murmuration_measures" 600 100)
echo "$output"
grep -q '^600 birds on CPU' <<< "$output" || { echo "FAIL: the example's first line"; exit 1; }
[ "$(grep -c '^t = ' <<< "$output")" -eq 2 ] || { echo "FAIL: the example's measures"; exit 1; }

if [ "$with_python" = 1 ]; then
  PYTHONPATH="$prefix/lib/python3/dist-packages" "$python" -c '
import murmur
sim = murmur.Simulation("free", boids=300, backend="cpu", seed=1)
sim.step(3)
assert sim.positions.shape == (300, 3), sim.positions.shape
assert murmur.__file__.startswith("'"$prefix"'"), murmur.__file__
print("python ok:", murmur.__file__, len(murmur.scenes()), "scenes")'
fi
echo "package ok"

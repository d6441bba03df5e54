# Sourced by scripts/test.sh and scripts/sanitize.sh (from the repository root): MURMUR_DATA_DIR for
# the tests of MovingAI's third-party maps (README "Maps"), taken from where CI keeps them, beside
# the clone. A MURMUR_DATA_DIR already set wins; set to a folder that is not there, their tests fail.
if [[ -z "${MURMUR_DATA_DIR:-}" && -d ../shared/data/movingai ]]; then
  MURMUR_DATA_DIR="$(cd ../shared/data && pwd)"
  export MURMUR_DATA_DIR
fi

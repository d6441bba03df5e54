// core includes the model above it: a violation the check must name.
#include "sim/flock.hpp"

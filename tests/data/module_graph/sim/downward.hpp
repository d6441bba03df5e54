// sim includes core below it: allowed.
#include "core/error.hpp"

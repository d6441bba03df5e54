#pragma once
// Murmur's library exports only what include/murmur/ declares with MURMUR_API: everything else is
// built with hidden visibility.
#define MURMUR_API __attribute__((visibility("default")))

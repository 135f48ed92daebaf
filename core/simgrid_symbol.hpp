// SimGrid's own definition of a function the preloaded suite defines in its place (the next one
// after ours in the symbol search order). A missing symbol means another SimGrid than 3.32: one
// line and exit 2, before the simulation spends any time.
#pragma once
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>

namespace haec::core {

template <typename Function> Function simgrid_symbol(const char* symbol)
{
  void* f = dlsym(RTLD_NEXT, symbol);
  if (f == nullptr) {
    std::fprintf(stderr, "haec: cannot find SimGrid's %s (%s)\n", symbol, dlerror());
    std::exit(2);
  }
  return reinterpret_cast<Function>(f);
}

} // namespace haec::core

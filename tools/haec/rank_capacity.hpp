// How many ranks this machine's simulator can hold, checked before a run instead of SimGrid
// aborting with "Failed to protect stack: Cannot allocate memory".
#pragma once

namespace haec::cli {

// Throws InputError naming -np when `ranks` exceeds what the kernel's memory-mapping limit
// (vm.max_map_count) allows: each rank's stack takes 2 mappings (stack and guard page), and in
// emulation each rank's private copy of the program about 6 more (measured with smpicc programs
// under SMPI's default dlopen privatization: 7 per rank).
void check_rank_capacity(int ranks, bool emulation);

} // namespace haec::cli

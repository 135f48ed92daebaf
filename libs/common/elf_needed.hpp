// What the dynamic loader reads of an ELF program: the shared libraries it names (DT_NEEDED), and
// the symbols it imports (undefined in its dynamic symbol table). How haec run tells a program
// linked with our PMPI layer (haec cc) from one built with plain smpicc, and sees whether its MPI
// calls would bypass the layer. Pure C++ on glibc's <elf.h> (64-bit little-endian, this
// platform's format); a file that is not such an ELF gives empty lists.
#pragma once
#include <string>
#include <vector>

namespace haec {

std::vector<std::string> elf_needed_libraries(const std::string& path);
std::vector<std::string> elf_undefined_symbols(const std::string& path);

} // namespace haec

// The shared libraries an ELF program names in its dynamic section (DT_NEEDED), as the dynamic
// loader reads them: how haec run tells a program linked with our PMPI layer (haec cc) from
// one built with plain smpicc. Pure C++ on glibc's <elf.h> (64-bit little-endian, this
// platform's format); a file that is not such an ELF gives an empty list.
#pragma once
#include <string>
#include <vector>

namespace haec {

std::vector<std::string> elf_needed_libraries(const std::string& path);

} // namespace haec

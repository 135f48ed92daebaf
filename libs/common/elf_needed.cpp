#include "elf_needed.hpp"

#include <elf.h>

#include <cstring>
#include <fstream>
#include <iterator>

namespace haec {
namespace {

template <class T> bool read_at(const std::string& image, uint64_t offset, T& out)
{
  if (offset > image.size() || image.size() - offset < sizeof(T))
    return false;
  std::memcpy(&out, image.data() + offset, sizeof(T));
  return true;
}

// The file offset of a virtual address, through the loadable segment holding it.
bool file_offset(const std::string& image, const Elf64_Ehdr& eh, uint64_t vaddr, uint64_t& offset)
{
  for (uint16_t i = 0; i < eh.e_phnum; ++i) {
    Elf64_Phdr ph{};
    if (!read_at(image, eh.e_phoff + uint64_t{i} * eh.e_phentsize, ph))
      return false;
    if (ph.p_type == PT_LOAD && vaddr >= ph.p_vaddr && vaddr - ph.p_vaddr < ph.p_filesz) {
      offset = ph.p_offset + (vaddr - ph.p_vaddr);
      return true;
    }
  }
  return false;
}


bool dynamic_segment(const std::string& image, const Elf64_Ehdr& eh, Elf64_Phdr& dyn)
{
  for (uint16_t i = 0; i < eh.e_phnum; ++i)
    if (read_at(image, eh.e_phoff + uint64_t{i} * eh.e_phentsize, dyn) && dyn.p_type == PT_DYNAMIC)
      return true;
  return false;
}

std::string read_image(const std::string& path)
{
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

bool elf64(const std::string& image, Elf64_Ehdr& eh)
{
  return read_at(image, 0, eh) && std::memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 && eh.e_ident[EI_CLASS] == ELFCLASS64 &&
         eh.e_ident[EI_DATA] == ELFDATA2LSB && eh.e_phentsize == sizeof(Elf64_Phdr);
}

// The text at `offset` of a string table starting at `table`, "" past the image.
std::string string_at(const std::string& image, uint64_t table, uint64_t offset)
{
  if (table + offset >= image.size())
    return "";
  const char* s = image.c_str() + table + offset;
  return std::string(s, strnlen(s, image.size() - table - offset));
}

} // namespace

std::vector<std::string> elf_undefined_symbols(const std::string& path)
{
  const std::string image = read_image(path);
  Elf64_Ehdr eh{};
  if (!elf64(image, eh) || eh.e_shentsize != sizeof(Elf64_Shdr))
    return {};
  std::vector<std::string> names;
  for (uint16_t i = 0; i < eh.e_shnum; ++i) {
    Elf64_Shdr sh{}, strings{};
    if (!read_at(image, eh.e_shoff + uint64_t{i} * eh.e_shentsize, sh) || sh.sh_type != SHT_DYNSYM ||
        sh.sh_entsize != sizeof(Elf64_Sym) ||
        !read_at(image, eh.e_shoff + uint64_t{sh.sh_link} * eh.e_shentsize, strings))
      continue;
    for (uint64_t at = sh.sh_offset + sizeof(Elf64_Sym); at + sizeof(Elf64_Sym) <= sh.sh_offset + sh.sh_size;
         at += sizeof(Elf64_Sym)) { // entry 0 is the null symbol
      Elf64_Sym sym{};
      if (read_at(image, at, sym) && sym.st_shndx == SHN_UNDEF && sym.st_name != 0)
        names.push_back(string_at(image, strings.sh_offset, sym.st_name));
    }
  }
  return names;
}

std::vector<std::string> elf_needed_libraries(const std::string& path)
{
  const std::string image = read_image(path);
  Elf64_Ehdr eh{};
  Elf64_Phdr dyn{};
  if (!elf64(image, eh) || !dynamic_segment(image, eh, dyn))
    return {};
  std::vector<uint64_t> needed; // offsets into the string table, known once DT_STRTAB is read
  uint64_t strtab = 0;
  for (uint64_t at = dyn.p_offset; at + sizeof(Elf64_Dyn) <= dyn.p_offset + dyn.p_filesz; at += sizeof(Elf64_Dyn)) {
    Elf64_Dyn d{};
    if (!read_at(image, at, d) || d.d_tag == DT_NULL)
      break;
    if (d.d_tag == DT_NEEDED)
      needed.push_back(d.d_un.d_val);
    else if (d.d_tag == DT_STRTAB)
      strtab = d.d_un.d_ptr;
  }
  uint64_t strings = 0;
  if (needed.empty() || !file_offset(image, eh, strtab, strings))
    return {};
  std::vector<std::string> names;
  for (uint64_t n : needed)
    if (strings + n < image.size())
      names.push_back(string_at(image, strings, n));
  return names;
}

} // namespace haec

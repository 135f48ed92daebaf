# cmake -DCMAKE_TOOLCHAIN_FILE=<prefix>/lib/cmake/haec-smpi/haec-smpi-toolchain.cmake: the project's
# C, C++ and Fortran compilers are this installation's haec-cc, haec-cxx and haec-fc (MPI programs
# for SimGrid with the haec PMPI layer), and find_package(haec-smpi) finds it.
get_filename_component(_haec_smpi_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
set(CMAKE_C_COMPILER "${_haec_smpi_prefix}/bin/haec-cc")
set(CMAKE_CXX_COMPILER "${_haec_smpi_prefix}/bin/haec-cxx")
set(CMAKE_Fortran_COMPILER "${_haec_smpi_prefix}/bin/haec-fc")
list(APPEND CMAKE_PREFIX_PATH "${_haec_smpi_prefix}")

# `cmake --install build --prefix P`: the layout of the build tree, under P (the tool finds its
# siblings relative to its own location, tools/haec/install_paths.cpp):
#   P/bin/               haec, haec-cc, haec-cxx, haec-f77, haec-fc (links to haec), haec-simgrid-probe,
#                        haec-exec (runs smpirun when a path has a blank, tools/haec/smpirun_words.hpp)
#   P/lib/               libhaec_suite.so, libhaec_pmpi.so, libhaec_pmpi_entry.a (the entry points haec-cc
#                        links into programs), haec-replay (the trace replayer); pkgconfig/haec-smpi.pc;
#                        cmake/haec-smpi/
#   P/share/haec/        what haec runs (campaign report, calibration plots), result scripts,
#                        ready platform files, example campaigns
#   P/share/man/man1/    haec.1, haec-run.1, ... (from the command tree, tools/haec/man_pages.py)
#   P/share/doc/haec-smpi/html/  the manual, when it was built (docs/CMakeLists.txt)
# Every installed file is relocatable (RPATH $ORIGIN, pcfiledir, CMAKE_CURRENT_LIST_DIR): the prefix
# is chosen at install time. The SimGrid the suite was built against stays where it is: haec and
# the libraries use it there (its library directory in their RPATH).
set(HAEC_INSTALL_SHARE share/haec)
set(HAEC_INSTALL_CMAKEDIR lib/cmake/haec-smpi)

# Installed binaries: our own libraries next to them, SimGrid's (and any other dependency outside
# the system's directories) where the build found them.
set_target_properties(haec haec-simgrid-probe PROPERTIES INSTALL_RPATH "$ORIGIN/../lib" INSTALL_RPATH_USE_LINK_PATH ON)
set_target_properties(haec_suite haec_pmpi haec_replay PROPERTIES INSTALL_RPATH "$ORIGIN" INSTALL_RPATH_USE_LINK_PATH ON)
set_target_properties(haec_suite PROPERTIES EXPORT_NAME suite)
set_target_properties(haec_pmpi PROPERTIES EXPORT_NAME pmpi)

install(TARGETS haec haec-simgrid-probe EXPORT haec-smpi-targets RUNTIME DESTINATION bin)
install(TARGETS haec_suite haec_pmpi EXPORT haec-smpi-targets LIBRARY DESTINATION lib)
install(TARGETS haec_pmpi_entry ARCHIVE DESTINATION lib)
install(TARGETS haec_replay LIBRARY DESTINATION lib)
install(TARGETS haec-exec RUNTIME DESTINATION bin) # haec's helper, not for other projects: not exported
foreach(link ${HAEC_COMPILER_LINKS})
  install(CODE "file(CREATE_LINK haec \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/bin/${link}\" SYMBOLIC)
                message(STATUS \"Installing: \$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/bin/${link} -> haec\")")
endforeach()

# What haec runs (the paths of tools/haec/cmd_campaign.cpp and calibrate_files.cpp), and the result
# scripts the manual names (Debian's /usr/bin/python3 with matplotlib).
install(FILES ${CMAKE_BINARY_DIR}/share/haec/campaign/report.py DESTINATION ${HAEC_INSTALL_SHARE}/campaign)
install(FILES ${CMAKE_BINARY_DIR}/share/haec/calibration/plot_net.py ${CMAKE_BINARY_DIR}/share/haec/calibration/plot_power.py
        DESTINATION ${HAEC_INSTALL_SHARE}/calibration)
install(PROGRAMS scripts/plot_power.py scripts/animate_snapshots.py scripts/dvfs_float_lp.py
        DESTINATION ${HAEC_INSTALL_SHARE}/scripts)
install(DIRECTORY platforms/ready/ DESTINATION ${HAEC_INSTALL_SHARE}/platforms)
install(DIRECTORY examples/campaigns/ DESTINATION ${HAEC_INSTALL_SHARE}/examples/campaigns)
install(DIRECTORY ${CMAKE_BINARY_DIR}/share/man/ DESTINATION share/man)

# pkg-config: `pkg-config --variable=cc haec-smpi` and the other paths (no Cflags or Libs: programs
# are built with haec-cc and its siblings, which add the PMPI layer themselves).
configure_file(cmake/haec-smpi.pc.in ${CMAKE_BINARY_DIR}/lib/pkgconfig/haec-smpi.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/lib/pkgconfig/haec-smpi.pc DESTINATION lib/pkgconfig)

# CMake: find_package(haec-smpi) gives the imported targets haec-smpi::haec, ::haec-simgrid-probe,
# ::suite, ::pmpi, and the compilers' paths; haec-smpi-toolchain.cmake makes them the project's.
install(EXPORT haec-smpi-targets NAMESPACE haec-smpi:: DESTINATION ${HAEC_INSTALL_CMAKEDIR})
include(CMakePackageConfigHelpers)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/cmake/haec-smpi-config-version.cmake
                                 COMPATIBILITY SameMinorVersion)
configure_file(cmake/haec-smpi-config.cmake.in ${CMAKE_BINARY_DIR}/cmake/haec-smpi-config.cmake @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/cmake/haec-smpi-config.cmake ${CMAKE_BINARY_DIR}/cmake/haec-smpi-config-version.cmake
              cmake/haec-smpi-toolchain.cmake
        DESTINATION ${HAEC_INSTALL_CMAKEDIR})

# A SimGrid inside this source or build tree (scripts/build-simgrid.sh's default prefix) goes with
# the tree: say so, the installation needs it.
foreach(tree ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR})
  string(FIND "${SIMGRID_PREFIX}/" "${tree}/" at)
  if(at EQUAL 0)
    install(CODE "message(STATUS \"Note: this installation runs the SimGrid of ${SIMGRID_PREFIX}, inside the tree it \"
                                 \"was built from: keep it, or install SimGrid elsewhere first (docs: Installation)\")")
    break()
  endif()
endforeach()

# Installing and packaging lockstep: `cmake --install` (DESTDIR and
# CMAKE_INSTALL_PREFIX work) puts the binary and lockstep-nightly
# (scripts/nightly.sh) in bin/, the manual pages (man1, man5), the
# docs and examples under share/, the slave's systemd unit (installed, not
# enabled) and its commented options file; `cpack -G DEB` (scripts/
# package.sh) makes a Debian package of the same files, its Depends found
# by dpkg-shlibdeps from what the binary links.
include(GNUInstallDirs)

install(TARGETS lockstep RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The cron wrapper, beside the binary it finds there (no PATH needed).
install(PROGRAMS scripts/nightly.sh DESTINATION ${CMAKE_INSTALL_BINDIR}
	RENAME lockstep-nightly)
# Every manual page the build wrote (LS_MAN_PAGES), by its section.
foreach(page IN LISTS LS_MAN_PAGES)
	string(REGEX REPLACE ".*\\." "" sect ${page})
	install(FILES ${CMAKE_BINARY_DIR}/man/${page}
		DESTINATION ${CMAKE_INSTALL_MANDIR}/man${sect})
endforeach()
install(FILES README.md docs/DESIGN.md docs/PERFORMANCE.md
	docs/CONTRIBUTING.md proto/PROTOCOL.md
	DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY examples/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples)
# The unit and its options file name the installed binary and /etc: they
# are written at install time, when the prefix is known (cpack installs
# again with its own prefix).
install(CODE "set(LS_SRC \"${CMAKE_SOURCE_DIR}\")
	set(LS_TMP \"${CMAKE_BINARY_DIR}/install-slave\")
	set(LS_BINDIR \"${CMAKE_INSTALL_BINDIR}\")
	set(LS_SYSCONFDIR \"${CMAKE_INSTALL_SYSCONFDIR}\")")
install(SCRIPT cmake/install-slave.cmake)

set(CPACK_PACKAGE_NAME lockstep)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "lockstep maintainers <lockstep@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
	"distributed storage load generator (Vdbench parameter files, io_uring)")
set(CPACK_PACKAGE_DESCRIPTION
	"A master runs Vdbench-style parameter files on many hosts at once; slaves started over ssh or as the lockstep-slave service (installed, not enabled) drive the I/O with io_uring.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION admin)
# Depends: what the binary links (libzmq5, libmsgpackc2, liburing2, ...),
# found by dpkg-shlibdeps, so a new library cannot be forgotten here.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "openssh-client")
# The options file is the administrator's: an upgrade keeps their edits.
file(WRITE ${CMAKE_BINARY_DIR}/debian/conffiles "/etc/lockstep/slave.env\n")
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${CMAKE_BINARY_DIR}/debian/conffiles)
set(CPACK_STRIP_FILES ON)
include(CPack)

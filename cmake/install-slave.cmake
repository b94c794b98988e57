# Run by `cmake --install` (see install.cmake): writes the slave's systemd
# unit with ExecStart at the installed binary and its options file under
# the install's /etc, from scripts/lockstep-slave.service and
# scripts/slave.env. A prefix of /usr has its options in /etc, any other
# in PREFIX/etc (GNU). Nothing is enabled.
if(IS_ABSOLUTE "${LS_SYSCONFDIR}")
	set(etc "${LS_SYSCONFDIR}")
elseif(CMAKE_INSTALL_PREFIX STREQUAL "/usr")
	set(etc "/etc")
else()
	set(etc "${CMAKE_INSTALL_PREFIX}/${LS_SYSCONFDIR}")
endif()
file(READ "${LS_SRC}/scripts/lockstep-slave.service" unit)
string(REPLACE "/usr/local/bin/lockstep"
	"${CMAKE_INSTALL_PREFIX}/${LS_BINDIR}/lockstep" unit "${unit}")
string(REPLACE "/etc/lockstep/" "${etc}/lockstep/" unit "${unit}")
file(MAKE_DIRECTORY "${LS_TMP}")
file(WRITE "${LS_TMP}/lockstep-slave.service" "${unit}")
file(INSTALL DESTINATION "${CMAKE_INSTALL_PREFIX}/lib/systemd/system"
	TYPE FILE PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ
	FILES "${LS_TMP}/lockstep-slave.service")
file(INSTALL DESTINATION "${etc}/lockstep" TYPE FILE
	PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ
	FILES "${LS_SRC}/scripts/slave.env")

# Read by cpack once per generator (CPACK_PROJECT_CONFIG_FILE): the .deb generator
# makes one package per component (libtcsparse<major>, libtcsparse-dev), the archive
# generators one archive holding both components in a top folder of its own.
if(CPACK_GENERATOR STREQUAL "DEB")
  set(CPACK_COMPONENTS_GROUPING ONE_PER_GROUP)
else()
  set(CPACK_COMPONENTS_GROUPING ALL_COMPONENTS_IN_ONE)
  set(CPACK_COMPONENT_INCLUDE_TOPLEVEL_DIRECTORY ON)
endif()

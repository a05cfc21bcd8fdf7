# What `cmake --install` puts where, by component (docs/packaging.md; the .deb packages of
# packaging/debian/ are made of these components):
#   server           lastrod, lastro, liblastro-sdk.so (private, <libdir>/lastro/), the
#                    configuration /etc/lastro/lastro.yaml
#   plugin-<name>    each plugin's library and manifest in <libdir>/lastro/plugins/
#                    (lastro_add_plugin, cmake/LastroPlugin.cmake)
#   plugin-<name>-dev the headers of the services a plugin offers to others (plugins/funds)
#   sdk-dev          the SDK headers (the generated ABI identity among them), the test kit
#                    liblastro-sdk-testing.a and the CMake package LastroSDK
include(CMakePackageConfigHelpers)

set(LASTRO_CMAKE_INSTALL_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/LastroSDK)

# The programs find the private liblastro-sdk.so through their RUNPATH; a plugin needs none: the
# host that loads it has the library loaded already.
set_target_properties(lastrod lastro PROPERTIES INSTALL_RPATH ${CMAKE_INSTALL_PREFIX}/${LASTRO_PRIVATE_LIBDIR})
install(TARGETS lastrod lastro RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT server)
install(TARGETS lastro-sdk EXPORT LastroSDKTargets
    LIBRARY DESTINATION ${LASTRO_PRIVATE_LIBDIR} COMPONENT server NAMELINK_COMPONENT sdk-dev)

# The installed configuration: data in /var/lib/lastro, plugins from the installed directory.
set(LASTRO_INSTALLED_DATA_DIR ${CMAKE_INSTALL_FULL_LOCALSTATEDIR}/lib/lastro)
set(LASTRO_INSTALLED_PLUGIN_DIR ${CMAKE_INSTALL_PREFIX}/${LASTRO_PLUGIN_INSTALL_DIR})
configure_file(${CMAKE_SOURCE_DIR}/packaging/lastro.yaml.in ${CMAKE_BINARY_DIR}/install/lastro.yaml @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/install/lastro.yaml DESTINATION ${CMAKE_INSTALL_SYSCONFDIR}/lastro
    COMPONENT server)

# The SDK for plugin authors: headers (the test kit's included), the generated ABI identity.
install(DIRECTORY ${CMAKE_SOURCE_DIR}/sdk/include/lastro DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
    COMPONENT sdk-dev FILES_MATCHING PATTERN "*.hpp")
install(FILES ${CMAKE_BINARY_DIR}/sdk/lastro-sdk-abi-identity/lastro/sdk/abi_identity.hpp
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/lastro/sdk COMPONENT sdk-dev)
set_target_properties(lastro-sdk-abi-identity PROPERTIES EXPORT_NAME abi-identity)
install(TARGETS lastro-sdk-abi-identity EXPORT LastroSDKTargets COMPONENT sdk-dev)
install(TARGETS lastro-sdk-testing EXPORT LastroSDKTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT sdk-dev)
install(EXPORT LastroSDKTargets NAMESPACE LastroSDK:: DESTINATION ${LASTRO_CMAKE_INSTALL_DIR}
    COMPONENT sdk-dev)

configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/LastroSDKConfig.cmake.in
    ${CMAKE_BINARY_DIR}/install/LastroSDKConfig.cmake
    INSTALL_DESTINATION ${LASTRO_CMAKE_INSTALL_DIR}
    PATH_VARS CMAKE_INSTALL_INCLUDEDIR LASTRO_PLUGIN_INSTALL_DIR)
# The ABI identity, not the version, decides whether a plugin loads; the version must match
# exactly all the same, so that a plugin is built against the SDK of the host it runs in.
write_basic_package_version_file(${CMAKE_BINARY_DIR}/install/LastroSDKConfigVersion.cmake
    VERSION ${PROJECT_VERSION} COMPATIBILITY ExactVersion)
install(FILES ${CMAKE_BINARY_DIR}/install/LastroSDKConfig.cmake
    ${CMAKE_BINARY_DIR}/install/LastroSDKConfigVersion.cmake
    ${CMAKE_SOURCE_DIR}/cmake/LastroOdb.cmake ${CMAKE_SOURCE_DIR}/cmake/LastroPlugin.cmake
    DESTINATION ${LASTRO_CMAKE_INSTALL_DIR} COMPONENT sdk-dev)

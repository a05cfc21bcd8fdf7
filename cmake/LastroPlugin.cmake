# lastro_add_plugin(<name> SOURCES <files...> [MODEL <model.hxx>] [MANIFEST <manifest.yaml>]
#                   [LIBS <targets...>] [OUTPUT_DIR <dir>])
#
# A plugin shared object (hidden visibility, no undefined symbols) and its manifest, both
# placed in OUTPUT_DIR (default ${LASTRO_PLUGIN_OUTPUT_DIR}, the directory lastrod loads in
# development; plugins only tests load go elsewhere). The code is compiled once into the OBJECT
# library lastro-<name>-objs, which the plugin's unit tests link directly.
#
# A plugin built into the default directory is also installed, library and manifest together,
# into ${LASTRO_PLUGIN_INSTALL_DIR} (the directory the packaged lastrod loads), as the install
# component plugin-<name>. This file serves the source tree and, installed with the SDK
# (lastro-sdk-dev), plugins built outside it: `find_package(LastroSDK)` includes it.
function(lastro_add_plugin name)
    cmake_parse_arguments(ARG "" "MODEL;MANIFEST;OUTPUT_DIR" "SOURCES;LIBS" ${ARGN})
    set(install_it OFF)
    if(NOT ARG_OUTPUT_DIR)
        set(ARG_OUTPUT_DIR ${LASTRO_PLUGIN_OUTPUT_DIR})
        set(install_it ON)
    endif()
    set(objs lastro-${name}-objs)
    add_library(${objs} OBJECT ${ARG_SOURCES})
    set_target_properties(${objs} PROPERTIES CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON
        POSITION_INDEPENDENT_CODE ON)
    target_link_libraries(${objs} PUBLIC LastroSDK::sdk ${ARG_LIBS})
    target_include_directories(${objs} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
    if(ARG_MODEL)
        lastro_odb_model(${objs} SCHEMA ${name} HEADER ${ARG_MODEL})
    endif()

    set(target lastro-${name})
    add_library(${target} SHARED $<TARGET_OBJECTS:${objs}>)
    set_target_properties(${target} PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${ARG_OUTPUT_DIR})
    target_link_options(${target} PRIVATE -Wl,--no-undefined)
    target_link_libraries(${target} PRIVATE ${objs})
    if(ARG_MANIFEST)
        configure_file(${ARG_MANIFEST} ${ARG_OUTPUT_DIR}/${name}.yaml COPYONLY)
    endif()
    if(install_it AND LASTRO_PLUGIN_INSTALL_DIR)
        install(TARGETS ${target} LIBRARY DESTINATION ${LASTRO_PLUGIN_INSTALL_DIR} COMPONENT plugin-${name})
        if(ARG_MANIFEST)
            install(FILES ${ARG_OUTPUT_DIR}/${name}.yaml DESTINATION ${LASTRO_PLUGIN_INSTALL_DIR}
                    COMPONENT plugin-${name})
        endif()
    endif()
endfunction()

# Helpers shared by core, plugins and tests.

# lastro_add_tests(<name> SOURCES <files...> LIBS <targets...>)
# One GoogleTest executable discovered by ctest (gtest_discover_tests).
function(lastro_add_tests name)
    cmake_parse_arguments(ARG "" "" "SOURCES;LIBS;LABELS" ${ARGN})
    if(NOT ARG_SOURCES)
        return()
    endif()
    add_executable(${name} ${ARG_SOURCES})
    target_link_libraries(${name} PRIVATE ${ARG_LIBS} GTest::gtest GTest::gtest_main GTest::gmock)
    target_compile_definitions(${name} PRIVATE
        LASTRO_SOURCE_DIR="${CMAKE_SOURCE_DIR}"
        LASTRO_BINARY_DIR="${CMAKE_BINARY_DIR}"
        LASTRO_PLUGIN_DIR="${LASTRO_PLUGIN_OUTPUT_DIR}")
    set(labels ${ARG_LABELS})
    if(NOT labels)
        set(labels unit)
    endif()
    gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60 PROPERTIES LABELS "${labels}")
endfunction()

# lastro_add_plugin(<name> SOURCES <files...> MODEL <model.hxx> MANIFEST <manifest.yaml>)
# A plugin shared object (hidden visibility, no undefined symbols) and its manifest, both
# placed in ${LASTRO_PLUGIN_OUTPUT_DIR}. The code is compiled once into the OBJECT library
# lastro-<name>-objs, which the plugin's unit tests link directly.
function(lastro_add_plugin name)
    cmake_parse_arguments(ARG "" "MODEL;MANIFEST" "SOURCES;LIBS" ${ARGN})
    set(objs lastro-${name}-objs)
    add_library(${objs} OBJECT ${ARG_SOURCES})
    set_target_properties(${objs} PROPERTIES CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
    target_link_libraries(${objs} PUBLIC lastro-sdk ${ARG_LIBS})
    target_include_directories(${objs} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
    if(ARG_MODEL)
        lastro_odb_model(${objs} SCHEMA ${name} HEADER ${ARG_MODEL})
    endif()

    set(target lastro-${name})
    add_library(${target} SHARED $<TARGET_OBJECTS:${objs}>)
    set_target_properties(${target} PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${LASTRO_PLUGIN_OUTPUT_DIR})
    target_link_options(${target} PRIVATE -Wl,--no-undefined)
    target_link_libraries(${target} PRIVATE ${objs})
    if(ARG_MANIFEST)
        configure_file(${ARG_MANIFEST} ${LASTRO_PLUGIN_OUTPUT_DIR}/${name}.yaml COPYONLY)
    endif()
endfunction()

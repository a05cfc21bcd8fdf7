# lastro_odb_model(<target> SCHEMA <name> HEADER <model.hxx> [INCLUDE_DIRS <dir>...])
#
# Runs the ODB compiler on one model header (a model is one header per schema, so that its
# changelog is one file) and adds the generated common, SQLite and PostgreSQL sources to
# <target>. Core and every plugin use this function; see docs/storage.md.
#
# The changelog <model>.xml lives beside the header and must be committed: ODB derives schema
# migrations from it (manual chapter 13), and it updates it when the model version changes.
find_program(LASTRO_ODB_COMPILER odb REQUIRED)

function(lastro_odb_model target)
    cmake_parse_arguments(ARG "" "SCHEMA;HEADER" "INCLUDE_DIRS" ${ARGN})
    if(NOT ARG_SCHEMA OR NOT ARG_HEADER)
        message(FATAL_ERROR "lastro_odb_model(${target}): SCHEMA and HEADER are required")
    endif()
    get_filename_component(header "${ARG_HEADER}" ABSOLUTE)
    get_filename_component(base "${header}" NAME_WE)
    get_filename_component(header_dir "${header}" DIRECTORY)
    set(out "${CMAKE_CURRENT_BINARY_DIR}/odb")
    file(MAKE_DIRECTORY "${out}")

    set(generated "")
    set(sources "")
    foreach(suffix "" "-sqlite" "-pgsql")
        list(APPEND generated "${out}/${base}-odb${suffix}.hxx" "${out}/${base}-odb${suffix}.ixx"
             "${out}/${base}-odb${suffix}.cxx")
        list(APPEND sources "${out}/${base}-odb${suffix}.cxx")
    endforeach()

    set(includes "")
    foreach(dir ${ARG_INCLUDE_DIRS} ${LASTRO_SDK_INCLUDE_DIR})
        list(APPEND includes "-I${dir}")
    endforeach()

    add_custom_command(
        OUTPUT ${generated}
        COMMAND "${LASTRO_ODB_COMPILER}"
            --multi-database dynamic -d common -d sqlite -d pgsql
            --std c++11 -x -std=c++20
            --generate-query --generate-prepared --generate-schema --schema-format embedded
            --schema-name "${ARG_SCHEMA}"
            # 9.1+ lets ODB write CREATE TABLE IF NOT EXISTS for the schema_version table that
            # every schema (core and each plugin) shares.
            --pgsql-server-version 9.1
            --changelog-dir "${header_dir}"
            --output-dir "${out}"
            ${includes}
            "${header}"
        DEPENDS "${header}" "${LASTRO_SDK_INCLUDE_DIR}/lastro/sdk/odb_optional.hpp"
        COMMENT "ODB: generating ${ARG_SCHEMA} persistence code from ${base}.hxx"
        VERBATIM)

    target_sources(${target} PRIVATE ${sources})
    # Generated code is not ours to restyle; keep the rest of the build at -Wall -Wextra.
    set_source_files_properties(${sources} PROPERTIES COMPILE_OPTIONS "-Wno-unused-parameter")
    target_include_directories(${target} PUBLIC "${out}" "${header_dir}")
endfunction()

include_guard(GLOBAL)
# The layers, enforced by the compiler: each library sees only its own folder of src/ and the
# folders of the libraries it links. Its include root holds a single link, <root>/<folder> ->
# src/<folder>, where src/ itself would show every folder; so an include of a layer above (which
# nothing below links) or of a library not linked fails to compile (tests/layers checks that).
function(attn_include_root target folder)
    set(root ${CMAKE_BINARY_DIR}/include-roots/${folder})
    file(REAL_PATH ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../src/${folder} source)
    if(NOT IS_SYMLINK ${root}/${folder})
        file(MAKE_DIRECTORY ${root})
        file(CREATE_LINK ${source} ${root}/${folder} SYMBOLIC)
    endif()
    get_target_property(type ${target} TYPE)
    if(type STREQUAL "EXECUTABLE")
        target_include_directories(${target} PRIVATE ${root})
    else()
        target_include_directories(${target} PUBLIC ${root})
    endif()
endfunction()

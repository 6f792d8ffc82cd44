# Drops every export of a bare module but those named (cmake -DMODULE=... -DKEEP="a;b;c" -P keep_exports.cmake):
# Emscripten always exports stackSave, stackRestore, stackAlloc and the function table, which no JS of a module
# without glue calls. wasm-metadce (binaryen) removes the other exports and whatever only they reached.
find_program(WASM_METADCE wasm-metadce REQUIRED)
set(graph "[\n  { \"name\": \"js\", \"root\": true, \"reaches\": [")
set(nodes "")
set(separator "")
foreach(name IN LISTS KEEP)
  string(APPEND graph "${separator}\"${name}\"")
  string(APPEND nodes ",\n  { \"name\": \"${name}\", \"export\": \"${name}\" }")
  set(separator ", ")
endforeach()
string(APPEND graph "] }${nodes}\n]\n")
file(WRITE "${MODULE}.graph.json" "${graph}")
execute_process(
  COMMAND "${WASM_METADCE}" "${MODULE}" --graph-file "${MODULE}.graph.json" -o "${MODULE}" --all-features
  RESULT_VARIABLE result OUTPUT_QUIET)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "wasm-metadce failed on ${MODULE}")
endif()

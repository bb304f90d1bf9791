# ctest downstream_find_package: install the build into a scratch prefix, then configure, build and
# run the project in this folder against it with find_package(gpdp). Run with cmake -P and
# -DBUILD_DIR=<gpdp build> -DSOURCE_DIR=<this folder> -DWORK_DIR=<scratch> -DGENERATOR=<generator>
# -DCXX=<compiler>.
file(REMOVE_RECURSE ${WORK_DIR})
function(step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "downstream: `${ARGN}` failed (${rc}):\n${out}")
  endif()
  set(step_output "${out}" PARENT_SCOPE)
endfunction()
step(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix)
step(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build -G ${GENERATOR}
     -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix)
step(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
step(${WORK_DIR}/build/downstream)
message(STATUS "downstream: ${step_output}")
if(NOT step_output MATCHES "gpdp [0-9.]+: 3 draws at 5 points, epsilon = [0-9.]+")
  message(FATAL_ERROR "downstream: unexpected output: ${step_output}")
endif()

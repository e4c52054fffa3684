# Writes a help2man include file with a section that holds each command's --help, so that
# `man attention-lens-cli` lists every option of every command exactly as the program prints them.
#   cmake -DCLI=<attention-lens-cli> -DBASE=<include file to extend> -DOUT=<file> -P this file
# Each command's text is set as preformatted roff; help2man adds it to the page it makes.
set(commands tokenize model generate trace render export pytorch explain bench)
file(READ ${BASE} text)
string(APPEND text "\n[COMMAND OPTIONS]\n")
foreach(command IN LISTS commands)
    execute_process(
        COMMAND ${CLI} ${command} --help
        OUTPUT_VARIABLE help
        RESULT_VARIABLE result
        ERROR_QUIET)
    if(NOT result EQUAL 0)
        message(FATAL_ERROR "${CLI} ${command} --help failed (${result})")
    endif()
    # roff: a backslash is written \e; a line may not start with a control character.
    string(REPLACE "\\" "\\e" help "${help}")
    string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" help "${help}")
    string(APPEND text ".SS \"attention-lens-cli ${command}\"\n.nf\n${help}.fi\n")
endforeach()
file(WRITE ${OUT} "${text}")

# `cpack -G DEB` in the build folder: a Debian package of what `cmake --install` installs (the
# app, the CLI, desktop entry, icons, metainfo, MIME type and man pages). dpkg-shlibdeps works
# out the library packages it depends on from the binaries, so Depends always matches what was
# linked. A package meant for other machines is built with ATTN_PORTABLE=ON (no -march=native):
# scripts/package.sh does that.
set(ATTN_PACKAGE_MAINTAINER "Attention Lens maintainers <attention-lens@example.org>"
    CACHE STRING "The Maintainer field of the Debian package")

set(CPACK_PACKAGE_NAME attention-lens)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "The Attention Lens developers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "see how transformer attention works, step by step")
set(CPACK_PACKAGE_HOMEPAGE_URL ${ATTN_HOMEPAGE_URL})
set(CPACK_PACKAGE_CONTACT ${ATTN_PACKAGE_MAINTAINER})
set(CPACK_PACKAGE_INSTALL_DIRECTORY attention-lens)
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR DEB)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER ${ATTN_PACKAGE_MAINTAINER})
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The icon theme and MIME database are refreshed by the triggers of hicolor-icon-theme,
# shared-mime-info and desktop-file-utils when they are installed; recommending them keeps a
# minimal system installable.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "hicolor-icon-theme, shared-mime-info, desktop-file-utils")
# Qt's German texts for the standard dialogs when the window is German.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "qt6-translations-l10n")
# The extended description: CPack puts CPACK_PACKAGE_DESCRIPTION_SUMMARY on the Description line
# itself, indents these lines and marks the empty one as Debian wants. Lines stay under 80
# columns; no double quotes, which CPack's generated config would split into a list.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "Attention Lens shows every step of the attention computation of a transformer,
as built in chapter 3 of Sebastian Raschka's book Build a Large Language Model
(From Scratch): type a sentence, choose the embedding size, heads and mask, and
watch each intermediate tensor as a heatmap with its PyTorch expression and
shape. The numbers equal PyTorch's for the same seed.

The package holds the desktop app (attention-lens) and the command-line tool
(attention-lens-cli), which writes the same steps as JSON, CSV, NumPy files
and figures.")

include(CPack)

/* The CPython bindings of the compiled core: the _engine module (placeholder). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include "core.h"

static struct PyModuleDef engine_module = {PyModuleDef_HEAD_INIT, "_engine",
                                           "Kiwara's compiled rules core.", -1, NULL};

PyMODINIT_FUNC PyInit__engine(void) { return PyModule_Create(&engine_module); }

/*
 * The byte encoding of fuzz_api's inputs, shared by the harness and the
 * corpus generator (gen_corpus.c) so that seeds keep meaning what they
 * say when operations are added: new operations go at the end.
 *
 * An input is a sequence of operations, each one opcode byte (taken
 * modulo FZ_OP_COUNT) followed by the argument bytes that operation reads;
 * a read past the end of the input gives zeros, so every input decodes.
 * Argument bytes mostly choose from small menus (which handle of a pool,
 * which class of size, which kind of fd), see fuzz_api.c.
 */
#ifndef CUVK_TESTS_FUZZ_OPS_H
#define CUVK_TESTS_FUZZ_OPS_H

enum fz_op {
   FZ_CTX_CREATE,          /* flags */
   FZ_CTX_DESTROY,         /* ctx */
   FZ_CTX_SET_CURRENT,     /* ctx */
   FZ_CTX_PUSH,            /* ctx */
   FZ_CTX_POP,             /* - */
   FZ_CTX_QUERY,           /* which */
   FZ_PRIMARY,             /* which (retain, release, reset, flags, state) */
   FZ_MEM_ALLOC,           /* size */
   FZ_MEM_ALLOC_PITCH,     /* width, height, element size */
   FZ_MEM_FREE,            /* dptr */
   FZ_MEM_QUERY,           /* which, dptr */
   FZ_HOST_ALLOC,          /* which, size, flags */
   FZ_HOST_FREE,           /* host */
   FZ_HOST_REGISTER,       /* offset, size, flags */
   FZ_HOST_UNREGISTER,     /* registration */
   FZ_COPY,                /* kind, stream, pointers, size */
   FZ_MEMSET,              /* kind, stream, dptr, size, value */
   FZ_COPY_2D3D,           /* kind, sides, geometry */
   FZ_ARRAY_CREATE,        /* 2D or 3D, descriptor */
   FZ_ARRAY_OP,            /* which, array */
   FZ_MIPMAP_CREATE,       /* descriptor, levels */
   FZ_MIPMAP_OP,           /* which, mipmap, level */
   FZ_STREAM_CREATE,       /* flags, priority */
   FZ_STREAM_OP,           /* which, stream */
   FZ_EVENT_CREATE,        /* flags */
   FZ_EVENT_OP,            /* which, event, stream */
   FZ_STREAM_WAIT_EVENT,   /* stream, event, flags */
   FZ_EXT_IMPORT,          /* fd kind, type, size, flags */
   FZ_EXT_MAP_BUFFER,      /* ext, offset, size, flags */
   FZ_EXT_MAP_MIPMAP,      /* ext, descriptor */
   FZ_EXT_DESTROY,         /* ext */
   FZ_VMM_RESERVE,         /* size, alignment, address */
   FZ_VMM_ADDRESS_FREE,    /* reservation, size */
   FZ_VMM_CREATE,          /* size, properties */
   FZ_VMM_HANDLE_OP,       /* which, handle */
   FZ_VMM_MAP,             /* reservation, offset, size, handle, handle offset */
   FZ_VMM_UNMAP,           /* mapping or range */
   FZ_VMM_ACCESS,          /* set or get, range, descriptor */
   FZ_VMM_SHARE,           /* export, import, fd kind */
   FZ_MISC,                /* error names, device queries */
   FZ_RUNTIME,             /* which, then the call's arguments */
   FZ_SEM_IMPORT,          /* source, type, flags, NULLs */
   FZ_SEM_SIGNAL,          /* count, entries (sem, value, flags), stream, NULLs, api */
   FZ_SEM_WAIT,            /* as FZ_SEM_SIGNAL, then when the host signals */
   FZ_SEM_DESTROY,         /* which, sem or exporter */
   FZ_HOST_FUNC,           /* api, fn, stream, behaviour, flags, sync */
   FZ_PROC_ADDRESS,        /* name, version, flags, NULLs, call */
   FZ_OP_COUNT
};

#endif

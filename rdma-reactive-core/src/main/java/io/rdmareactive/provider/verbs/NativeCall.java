package io.rdmareactive.provider.verbs;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * One exported C function, bound through FFM for the control path. Functions that report failure through
 * {@code errno} are bound with {@code Linker.Option.captureCallState("errno")}: the JVM may overwrite errno after a
 * call returns, so it is captured by the call itself; their handle takes the capture segment as first argument.
 */
final class NativeCall {

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CAPTURE_LAYOUT = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CAPTURE_LAYOUT.varHandle(
        java.lang.foreign.MemoryLayout.PathElement.groupElement("errno"));

    private final String name;
    private final MethodHandle handle;
    private final boolean capturesErrno;

    private NativeCall(final String name, final MethodHandle handle, final boolean capturesErrno) {
        this.name = name;
        this.handle = handle;
        this.capturesErrno = capturesErrno;
    }

    /** Binds a function that reports errors in its return value (or not at all). */
    static NativeCall bind(final SymbolLookup library, final String name, final FunctionDescriptor descriptor) {
        return new NativeCall(name, LINKER.downcallHandle(find(library, name), descriptor), false);
    }

    /** Binds a function that sets errno when it fails. */
    static NativeCall bindErrno(final SymbolLookup library, final String name, final FunctionDescriptor descriptor) {
        return new NativeCall(name, LINKER.downcallHandle(find(library, name), descriptor,
            Linker.Option.captureCallState("errno")), true);
    }

    private static MemorySegment find(final SymbolLookup library, final String name) {
        return library.find(name).orElseThrow(() -> new VerbsUnavailableException("the RDMA libraries installed here "
            + "do not export " + name + "; rdma-core 28 or later is needed (Debian/Ubuntu: libibverbs1 librdmacm1)"));
    }

    /** @return the C name, for messages */
    String name() {
        return name;
    }

    /** @return the bound handle (for errno-capturing calls, the first argument is the capture segment) */
    MethodHandle handle() {
        return handle;
    }

    boolean capturesErrno() {
        return capturesErrno;
    }

    /** @return a segment to pass as the capture argument of an errno-capturing call */
    static MemorySegment captureSegment(final Arena arena) {
        return arena.allocate(CAPTURE_LAYOUT);
    }

    /** @return the errno a call left in its capture segment */
    static int errno(final MemorySegment capture) {
        return (int) ERRNO.get(capture, 0L);
    }
}

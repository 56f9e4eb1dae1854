import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;

/**
 * The smallest proof that Java reaches real verbs in the Soft-RoCE guest: through FFM, with no library of ours, it
 * lists the RDMA devices libibverbs sees ({@code ibv_get_device_list}), opens each one and closes it again.
 *
 * <pre>
 *   java --enable-native-access=ALL-UNNAMED softroce/VerbsSmoke.java [EXPECTED_DEVICE]   (default rxe0)
 * </pre>
 *
 * Prints {@code VerbsSmoke: devices: rxe0 (opened)} and exits 0 when the expected device is there and opens; exits
 * 1 otherwise, saying why (on a machine without RDMA, libibverbs returns no list and errno 38, ENOSYS).
 */
public final class VerbsSmoke {

    private VerbsSmoke() {
    }

    public static void main(final String[] args) throws Throwable {
        final String expected = args.length > 0 ? args[0] : "rxe0";
        final Linker linker = Linker.nativeLinker();
        final StructLayout callState = Linker.Option.captureStateLayout();
        final VarHandle errno = callState.varHandle(MemoryLayout.PathElement.groupElement("errno"));
        try (Arena arena = Arena.ofConfined()) {
            final SymbolLookup verbs = SymbolLookup.libraryLookup("libibverbs.so.1", arena);
            // struct ibv_device **ibv_get_device_list(int *num_devices)
            final MethodHandle getDeviceList = linker.downcallHandle(verbs.findOrThrow("ibv_get_device_list"),
                FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS), Linker.Option.captureCallState("errno"));
            // void ibv_free_device_list(struct ibv_device **list)
            final MethodHandle freeDeviceList = linker.downcallHandle(verbs.findOrThrow("ibv_free_device_list"),
                FunctionDescriptor.ofVoid(ValueLayout.ADDRESS));
            // const char *ibv_get_device_name(struct ibv_device *device)
            final MethodHandle getDeviceName = linker.downcallHandle(verbs.findOrThrow("ibv_get_device_name"),
                FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS));
            // struct ibv_context *ibv_open_device(struct ibv_device *device); int ibv_close_device(ctx)
            final MethodHandle openDevice = linker.downcallHandle(verbs.findOrThrow("ibv_open_device"),
                FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS));
            final MethodHandle closeDevice = linker.downcallHandle(verbs.findOrThrow("ibv_close_device"),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS));

            final MemorySegment state = arena.allocate(callState);
            final MemorySegment count = arena.allocate(ValueLayout.JAVA_INT);
            MemorySegment list = (MemorySegment) getDeviceList.invokeExact(state, count);
            if (list.equals(MemorySegment.NULL)) {
                System.out.println("VerbsSmoke: ibv_get_device_list returned NULL, errno " + (int) errno.get(state, 0L));
                System.exit(1);
            }
            final List<String> found = new ArrayList<>();
            boolean expectedOpened = false;
            try {
                final int devices = count.get(ValueLayout.JAVA_INT, 0);
                list = list.reinterpret(ValueLayout.ADDRESS.byteSize() * (devices + 1L));
                for (int i = 0; i < devices; i++) {
                    final MemorySegment device = list.getAtIndex(ValueLayout.ADDRESS, i);
                    final String name = ((MemorySegment) getDeviceName.invokeExact(device)).reinterpret(256)
                        .getString(0);
                    final MemorySegment context = (MemorySegment) openDevice.invokeExact(device);
                    final boolean opened = !context.equals(MemorySegment.NULL);
                    if (opened) {
                        final int closed = (int) closeDevice.invokeExact(context);
                        found.add(name + (closed == 0 ? " (opened)" : " (opened, close failed: " + closed + ")"));
                    } else {
                        found.add(name + " (ibv_open_device failed)");
                    }
                    expectedOpened |= name.equals(expected) && opened;
                }
            } finally {
                freeDeviceList.invokeExact(list);
            }
            System.out.println("VerbsSmoke: devices: " + (found.isEmpty() ? "none" : String.join(", ", found)));
            if (!expectedOpened) {
                System.out.println("VerbsSmoke: expected device '" + expected + "' was not found or did not open");
                System.exit(1);
            }
        }
    }
}

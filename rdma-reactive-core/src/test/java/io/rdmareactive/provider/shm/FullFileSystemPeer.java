package io.rdmareactive.provider.shm;

import io.rdmareactive.spi.Access;
import io.rdmareactive.spi.DeviceOptions;
import io.rdmareactive.spi.MemoryRegion;
import io.rdmareactive.spi.RdmaDevice;
import io.rdmareactive.spi.RdmaProviders;
import io.rdmareactive.spi.RegistrationLimitException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The child of {@link ShmFullFileSystemTest}, run on a small tmpfs of its own: registers a region while there is
 * room, lets another file take every block left, then writes every page of the region (a sparse region would die of
 * SIGBUS here), and asks for one more region, which must be refused naming the directory and the bytes.
 */
public final class FullFileSystemPeer {

    private FullFileSystemPeer() {
    }

    public static void main(final String[] args) throws IOException {
        final Path mount = Path.of(args[0]);
        final Path directory = Files.createDirectories(mount.resolve("shm"));
        final int length = 1 << 20;
        try (RdmaDevice device = RdmaProviders.named("shm").open(DeviceOptions.builder().directory(directory).build())) {
            final MemoryRegion region = device.allocateRegion(length, Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            final long filled = fill(mount.resolve("filler"));
            System.out.println("filled " + filled + " bytes; free now " + Files.getFileStore(mount).getUsableSpace());
            final UnsafeBuffer memory = new UnsafeBuffer(region.address(), length);
            int pages = 0;
            for (int offset = 0; offset < length; offset += 4096) {
                memory.putLong(offset, offset + 1L);
                pages++;
            }
            for (int offset = 0; offset < length; offset += 4096) {
                if (memory.getLong(offset) != offset + 1L) {
                    throw new IllegalStateException("page at " + offset + " lost its write");
                }
            }
            System.out.println("touched " + pages + " pages");
            try {
                device.allocateRegion(length, Access.LOCAL_WRITE);
                System.out.println("second region: allocated (wrong)");
            } catch (final RegistrationLimitException ex) {
                System.out.println("second region: " + ex.getMessage());
            }
        }
    }

    /** Another program takes every block left: writes until the file system is full. */
    private static long fill(final Path file) throws IOException {
        final ByteBuffer chunk = ByteBuffer.allocate(64 * 1024);
        long written = 0;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            while (true) {
                chunk.clear();
                written += channel.write(chunk);
            }
        } catch (final IOException full) {
            if (!String.valueOf(full.getMessage()).contains("No space left")) {
                throw full;
            }
        }
        return written;
    }
}

package io.rdmareactive.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** A short directory under /tmp for a test's shared-memory files and counters (socket paths hold 107 bytes). */
final class ShmDirectory implements AutoCloseable {

    final Path path;

    ShmDirectory() {
        try {
            path = Files.createTempDirectory(Path.of("/tmp"), "rrcli");
        } catch (final IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * Deletes the directory and what is left in it; a runtime that is closing may still remove files of its own
     * meanwhile, so a file that vanished is no error, and a directory that filled again is tried once more.
     */
    @Override
    public void close() throws IOException {
        for (int attempt = 0; ; attempt++) {
            try (Stream<Path> walk = Files.walk(path)) {
                final List<Path> paths = walk.sorted(Comparator.reverseOrder()).toList();
                for (final Path each : paths) {
                    Files.deleteIfExists(each);
                }
                return;
            } catch (final NoSuchFileException ex) {
                return;
            } catch (final IOException ex) {
                if (attempt >= 10) {
                    throw ex;
                }
                try {
                    Thread.sleep(100);
                } catch (final InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw ex;
                }
            }
        }
    }
}

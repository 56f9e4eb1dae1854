package io.rdmareactive.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Makes and deletes the private shared-memory directories of tests. A JUnit test asks for one with
 * {@link ShmTestDirectory}; this class is for what JUnit does not run (a TestNG test) or a directory per round of a
 * loop.
 */
public final class ShmTestDirectories {

    /** How often a deletion walks the directory again, and how long it waits in between. */
    private static final int ATTEMPTS = 10;
    private static final long PAUSE_MILLIS = 50;

    private ShmTestDirectories() {
    }

    /** @return a new, empty directory under /tmp with a short name (socket paths in it hold 107 bytes) */
    public static Path create() {
        try {
            return Files.createTempDirectory(Path.of("/tmp"), "rr");
        } catch (final IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * Deletes the directory and what is left in it. The library may still be removing files of its own meanwhile (a
     * loop closing a connection): a file that vanishes under the walk is no error, and the walk starts again while
     * the directory is still there.
     *
     * @throws IllegalStateException if the directory is still not empty after a few walks, naming what is left
     */
    public static void delete(final Path directory) {
        if (directory == null) {
            return;
        }
        for (int attempt = 1; Files.exists(directory); attempt++) {
            try {
                walkAndDelete(directory);
            } catch (final NoSuchFileException | DirectoryNotEmptyException ex) {
                if (attempt == ATTEMPTS) {
                    throw new IllegalStateException("still in " + directory + " after " + ATTEMPTS + " attempts to "
                        + "delete it: " + remaining(directory), ex);
                }
                pause();
            } catch (final IOException ex) {
                throw new UncheckedIOException(ex);
            }
        }
    }

    private static void walkAndDelete(final Path directory) throws IOException {
        final List<Path> paths;
        try (Stream<Path> walk = Files.walk(directory)) {
            paths = walk.sorted(Comparator.reverseOrder()).toList();
        } catch (final UncheckedIOException ex) {
            throw ex.getCause();
        }
        for (final Path path : paths) {
            Files.deleteIfExists(path);
        }
    }

    private static List<String> remaining(final Path directory) {
        try (Stream<Path> files = Files.list(directory)) {
            return files.map(path -> path.getFileName().toString()).sorted().toList();
        } catch (final IOException | UncheckedIOException ex) {
            return List.of("(unreadable: " + ex + ")");
        }
    }

    private static void pause() {
        try {
            Thread.sleep(PAUSE_MILLIS);
        } catch (final InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while deleting a directory", ex);
        }
    }
}

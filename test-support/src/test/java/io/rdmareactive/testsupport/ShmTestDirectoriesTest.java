package io.rdmareactive.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ShmTestDirectoriesTest {

    @Test
    void aDirectoryIsDeletedWithWhatItHoldsAndAMissingOneIsNoError() throws IOException {
        final Path directory = ShmTestDirectories.create();
        Files.createDirectories(directory.resolve("a").resolve("b"));
        Files.writeString(directory.resolve("a").resolve("b").resolve("file"), "x");
        Files.writeString(directory.resolve("file"), "x");

        ShmTestDirectories.delete(directory);

        assertThat(directory).doesNotExist();
        ShmTestDirectories.delete(directory);
        ShmTestDirectories.delete(null);
    }
}

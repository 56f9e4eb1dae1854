package io.rdmareactive.testsupport;

import java.nio.file.Path;

/** A superclass's private {@link ShmTestDirectory} field, as a fixture of several test classes would have it. */
abstract class ShmTestDirectoryExtensionTestBase {

    @ShmTestDirectory
    Path inherited;
}

package io.rdmareactive.testsupport;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.commons.support.ReflectionSupport;

/**
 * Gives each {@link ShmTestDirectory} field and parameter of a test a directory of its own
 * ({@link ShmTestDirectories#create}) and deletes those directories once the test and its {@code @AfterEach} methods
 * are done ({@link ShmTestDirectories#delete}): what a test checks about the files it leaves, it checks in the test
 * itself.
 * Instance fields only: a directory that outlives one test would be shared by tests that expect a private one.
 */
public final class ShmTestDirectoryExtension implements BeforeEachCallback, AfterEachCallback, ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE =
        ExtensionContext.Namespace.create(ShmTestDirectoryExtension.class);

    @Override
    public void beforeEach(final ExtensionContext context) throws IllegalAccessException {
        final Object instance = context.getRequiredTestInstance();
        for (final Field field : AnnotationSupport.findAnnotatedFields(instance.getClass(), ShmTestDirectory.class)) {
            if (Modifier.isStatic(field.getModifiers()) || field.getType() != Path.class) {
                throw new ExtensionConfigurationException("@ShmTestDirectory is for instance fields of type Path, not "
                    + field);
            }
            ReflectionSupport.makeAccessible(field).set(instance, newDirectory(context));
        }
    }

    @Override
    public boolean supportsParameter(final ParameterContext parameter, final ExtensionContext context) {
        return parameter.isAnnotated(ShmTestDirectory.class) && parameter.getParameter().getType() == Path.class;
    }

    @Override
    public Object resolveParameter(final ParameterContext parameter, final ExtensionContext context) {
        if (context.getTestMethod().isEmpty()) {
            throw new ExtensionConfigurationException("@ShmTestDirectory parameters are for test methods and their "
                + "@BeforeEach and @AfterEach methods, not " + parameter.getDeclaringExecutable());
        }
        return newDirectory(context);
    }

    /** Deletes every directory the test was given, the first failure (with the others suppressed) failing it. */
    @Override
    public void afterEach(final ExtensionContext context) {
        RuntimeException failure = null;
        for (final Path directory : directories(context)) {
            try {
                ShmTestDirectories.delete(directory);
            } catch (final RuntimeException ex) {
                if (failure == null) {
                    failure = ex;
                } else {
                    failure.addSuppressed(ex);
                }
            }
        }
        context.getStore(NAMESPACE).remove(Directories.class);
        if (failure != null) {
            throw failure;
        }
    }

    private static Path newDirectory(final ExtensionContext context) {
        final Path directory = ShmTestDirectories.create();
        directories(context).add(directory);
        return directory;
    }

    private static List<Path> directories(final ExtensionContext context) {
        return context.getStore(NAMESPACE).getOrComputeIfAbsent(Directories.class, key -> new Directories(),
            Directories.class).paths;
    }

    /** The directories made for one test, in the test's store. */
    private static final class Directories {
        final List<Path> paths = new ArrayList<>();
    }
}

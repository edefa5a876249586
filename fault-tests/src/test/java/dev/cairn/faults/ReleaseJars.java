package dev.cairn.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The runnable jars of one release of Cairn, each beside its {@code lib/} directory as {@code mvn package} leaves
 * it: the coordinator ({@code java -jar}), the task sidecar and the
 * command line. {@link #current()} is this build; {@link PreviousRelease#get()} builds the one before it.
 *
 * @param name what the reports call it ({@code this build (0.3.0)}, {@code the previous release (e5773bc)})
 * @param coordinatorJar {@code coordinator-service/target/cairn-coordinator-service.jar}
 * @param sidecarJar {@code task-sidecar/target/cairn-task-sidecar.jar}
 * @param cliJar {@code cairn-cli/target/cairn-cli.jar}
 */
record ReleaseJars(String name, Path coordinatorJar, Path sidecarJar, Path cliJar) {

    /**
     * This build's jars, named by the system properties the fault-tests pom sets ({@code cairn.coordinator.jar},
     * {@code cairn.sidecar.jar}, {@code cairn.cli.jar}).
     */
    static ReleaseJars current() {
        Path coordinator = property("cairn.coordinator.jar");
        return new ReleaseJars("this build (" + version(coordinator) + ")", coordinator, property("cairn.sidecar.jar"),
                property("cairn.cli.jar"));
    }

    /** The {@code Implementation-Version} of {@code jar}'s manifest, or {@code unversioned}. */
    private static String version(Path jar) {
        try (JarFile file = new JarFile(jar.toFile())) {
            Manifest manifest = file.getManifest();
            String version = manifest == null ? null : manifest.getMainAttributes().getValue("Implementation-Version");
            return version == null ? "unversioned" : version;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + jar, e);
        }
    }

    /** The jars of a source tree built with {@code mvn package}, or an exception naming the one that is missing. */
    static ReleaseJars builtIn(Path root, String name) {
        return new ReleaseJars(name, jar(root.resolve("coordinator-service/target"), "cairn-coordinator-service"),
                jar(root.resolve("task-sidecar/target"), "cairn-task-sidecar"),
                jar(root.resolve("cairn-cli/target"), "cairn-cli"));
    }

    /** Whether every jar of {@link #builtIn} is there. */
    static boolean isBuiltIn(Path root) {
        try {
            builtIn(root, "check");
            return true;
        } catch (IllegalStateException e) {
            return false;
        }
    }

    private static Path property(String key) {
        String value = System.getProperty(key);
        if (value == null || !Files.isRegularFile(Path.of(value))) {
            throw new IllegalStateException("system property " + key + " must name a built jar (the fault-tests pom "
                    + "sets it; mvn package builds it), was " + value);
        }
        return Path.of(value);
    }

    /**
     * The runnable jar {@code <artifact>.jar} (or {@code <artifact>-<version>.jar}) in {@code target}, with its
     * {@code lib/}; not the tests or sources jar.
     */
    private static Path jar(Path target, String artifact) {
        List<Path> jars;
        try (Stream<Path> files = Files.list(target)) {
            jars = files.filter(f -> isRunnableJar(f.getFileName().toString(), artifact)).toList();
        } catch (IOException e) {
            throw new IllegalStateException("no built " + artifact + " jar: cannot list " + target, e);
        }
        if (jars.size() != 1 || !Files.isDirectory(target.resolve("lib"))) {
            throw new IllegalStateException("expected one runnable " + artifact + " jar and lib/ in " + target
                    + ", found " + jars);
        }
        return jars.get(0);
    }

    private static boolean isRunnableJar(String file, String artifact) {
        return file.startsWith(artifact) && file.endsWith(".jar") && !file.endsWith("-tests.jar")
                && !file.endsWith("-sources.jar") && !file.endsWith("-javadoc.jar")
                && (file.equals(artifact + ".jar") || file.matches(Pattern.quote(artifact) + "-\\d.*\\.jar"));
    }

    @Override
    public String toString() {
        return name;
    }
}

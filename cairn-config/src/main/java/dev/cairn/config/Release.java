package dev.cairn.config;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The Cairn release a program runs: the {@code Implementation-Version} of the jar this class was loaded from (every
 * module of one build has the project's version), else the project version Maven wrote into
 * {@code release.properties} when it built the classes (tests and the demo run from classes), else
 * {@value #DEVELOPMENT}. Coordinators, sidecars and the CLI report it in their logs, their metrics and
 * {@code --version} ({@link Version}).
 */
public final class Release {

    /** What {@link #version()} answers when neither the manifest nor the build names a version. */
    public static final String DEVELOPMENT = "development build";

    private static final String VERSION = read();

    private Release() {
    }

    /** The release, e.g. {@code 0.2.0}. */
    public static String version() {
        return VERSION;
    }

    private static String read() {
        String version = Release.class.getPackage().getImplementationVersion();
        if (version != null && !version.isBlank()) {
            return version;
        }
        try (InputStream in = Release.class.getResourceAsStream("release.properties")) {
            if (in != null) {
                Properties properties = new Properties();
                properties.load(in);
                String built = properties.getProperty("version", "");
                if (!built.isBlank() && !built.startsWith("${")) {
                    return built.strip();
                }
            }
        } catch (IOException e) {
            return DEVELOPMENT;
        }
        return DEVELOPMENT;
    }

    /**
     * {@code --version} of a picocli program ({@code versionProvider = Release.Version.class}): its command's name
     * and the release, e.g. {@code cairn-coordinator 0.4.0}, and the Java runtime.
     */
    public static final class Version implements CommandLine.IVersionProvider {

        @Spec
        CommandSpec spec;

        @Override
        public String[] getVersion() {
            return new String[] {(spec == null ? "cairn" : spec.qualifiedName()) + " " + version(),
                "Java " + Runtime.version() + " (" + System.getProperty("java.vendor", "unknown vendor") + ")"};
        }
    }
}

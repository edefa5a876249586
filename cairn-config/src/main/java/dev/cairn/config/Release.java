package dev.cairn.config;

/**
 * The Cairn release a program runs: the {@code Implementation-Version} of the jar this class was loaded from (every
 * module of one build has the project's version), or {@value #DEVELOPMENT} when it runs from classes, as tests and
 * the demo do. Coordinators, sidecars and the CLI report it in their logs, their metrics and {@code --version}.
 */
public final class Release {

    /** What {@link #version()} answers outside a released jar. */
    public static final String DEVELOPMENT = "development build";

    private Release() {
    }

    /** The release, e.g. {@code 0.2.0}. */
    public static String version() {
        String version = Release.class.getPackage().getImplementationVersion();
        return version == null || version.isBlank() ? DEVELOPMENT : version;
    }
}

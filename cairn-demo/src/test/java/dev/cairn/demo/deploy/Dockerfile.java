package dev.cairn.demo.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One of the repository's Dockerfiles, read as text (no Docker engine on the build machines). In: the module that
 * holds it. Out: the tag its build line gives the image, the user and health check of its final stage, its
 * environment defaults.
 */
public record Dockerfile(String module, String text) {

    /** Every Cairn image's user: uid and gid. */
    public static final String USER = "10001:10001";
    /** The modules with a Dockerfile. */
    public static final List<String> MODULES = List.of("coordinator-service", "task-sidecar", "sample-worker",
            "cairn-cli");

    private static final Pattern VERSION = Pattern.compile(
            "<artifactId>cairn-parent</artifactId>\\s*<version>([^<]+)</version>");

    /** The Dockerfile of {@code module}. */
    public static Dockerfile of(String module) {
        try {
            return new Dockerfile(module, Files.readString(KustomizeTree.ROOT.resolve(module).resolve("Dockerfile")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every Dockerfile. */
    public static List<Dockerfile> all() {
        return MODULES.stream().map(Dockerfile::of).toList();
    }

    /** The project's version, the images' tag: {@code cairn/<name>:<version>}. */
    public static String projectVersion() {
        try {
            Matcher version = VERSION.matcher(Files.readString(KustomizeTree.ROOT.resolve("pom.xml")));
            assertThat(version.find()).as("the parent's version in pom.xml").isTrue();
            return version.group(1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The path of this Dockerfile from the repository's root. */
    public String path() {
        return module + "/Dockerfile";
    }

    /** The image its build line tags: {@code docker build -f <module>/Dockerfile -t <image> .}. */
    public String image() {
        Matcher build = Pattern.compile("docker build -f " + Pattern.quote(path()) + " -t (\\S+) \\.").matcher(text);
        assertThat(build.find()).as("the build line of %s", path()).isTrue();
        return build.group(1);
    }

    /** The instructions of the final stage (after its last {@code FROM}), continuation lines joined. */
    public List<String> finalStage() {
        String joined = text.replaceAll("\\\\\\n\\s*", " ");
        List<String> stage = new ArrayList<>();
        for (String line : joined.lines().toList()) {
            if (line.startsWith("FROM ")) {
                stage.clear();
            }
            if (!line.isBlank() && !line.startsWith("#")) {
                stage.add(line);
            }
        }
        return stage;
    }

    /** The final stage's last {@code USER}. */
    public Optional<String> user() {
        return finalStage().stream().filter(l -> l.startsWith("USER ")).reduce((a, b) -> b).map(l -> l.substring(5));
    }

    /** The final stage's {@code HEALTHCHECK}, if any. */
    public Optional<String> healthCheck() {
        return finalStage().stream().filter(l -> l.startsWith("HEALTHCHECK ")).findFirst();
    }

    /** The final stage's {@code ENV name=value} defaults. */
    public Map<String, String> environment() {
        Map<String, String> env = new LinkedHashMap<>();
        finalStage().stream().filter(l -> l.startsWith("ENV ")).forEach(l -> {
            for (String pair : l.substring(4).trim().split("\\s+")) {
                env.put(pair.substring(0, pair.indexOf('=')), pair.substring(pair.indexOf('=') + 1));
            }
        });
        return env;
    }

    /** The index of the final stage's first instruction starting with {@code prefix}; -1 if none. */
    public int indexOf(String prefix) {
        List<String> stage = finalStage();
        for (int i = 0; i < stage.size(); i++) {
            if (stage.get(i).startsWith(prefix)) {
                return i;
            }
        }
        return -1;
    }
}

package dev.cairn.demo.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesList;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A kustomization of {@code deploy/kubernetes/}, resolved as {@code kubectl apply -k} would resolve its
 * {@code resources} (kustomize itself cannot run on the build machines): every listed file must exist and be read by
 * Kubernetes' object model (fabric8) into typed objects; a listed folder is a kustomization of its own. In: the
 * kustomization's folder. Out: its objects and the files its {@code secretGenerator} reads.
 */
public record KustomizeTree(Path folder, JsonNode kustomization, List<HasMetadata> objects) {

    /** The repository's root (the tests run in the module's folder). */
    public static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    /** Where the kustomizations are. */
    public static final Path DEPLOY = ROOT.resolve("deploy/kubernetes");

    /** Reads {@code folder}'s kustomization.yaml and every resource it lists. */
    public static KustomizeTree read(Path folder) {
        Path file = folder.resolve("kustomization.yaml");
        assertThat(file).as("a kustomization").isRegularFile();
        try {
            JsonNode kustomization = new YAMLMapper().readTree(file.toFile());
            assertThat(kustomization.path("kind").asText()).isEqualTo("Kustomization");
            List<HasMetadata> objects = new ArrayList<>();
            assertThat(kustomization.path("resources")).as("resources of %s", file).isNotEmpty();
            for (JsonNode resource : kustomization.path("resources")) {
                Path listed = folder.resolve(resource.asText()).normalize();
                assertThat(listed).as("resource %s of %s", resource.asText(), file).exists();
                objects.addAll(Files.isDirectory(listed) ? read(listed).objects() : parse(listed));
            }
            return new KustomizeTree(folder, kustomization, List.copyOf(objects));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every kustomization under {@code deploy/kubernetes/}. */
    public static List<Path> all() {
        try (Stream<Path> files = Files.walk(DEPLOY)) {
            return files.filter(f -> f.getFileName().toString().equals("kustomization.yaml")).map(Path::getParent)
                    .sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The typed objects of one manifest, which may hold several documents. */
    static List<HasMetadata> parse(Path manifest) throws IOException {
        Object read;
        try (InputStream in = Files.newInputStream(manifest)) {
            read = Serialization.unmarshal(in);
        }
        List<HasMetadata> objects = new ArrayList<>();
        if (read instanceof KubernetesList list) {
            objects.addAll(list.getItems());
        } else if (read instanceof List<?> list) {
            list.forEach(o -> objects.add((HasMetadata) o));
        } else {
            objects.add((HasMetadata) read);
        }
        assertThat(objects).as("objects of %s", manifest).isNotEmpty().doesNotContainNull();
        return objects;
    }

    /** The one object of {@code type} named {@code name}. */
    public <T extends HasMetadata> T get(Class<T> type, String name) {
        return objects.stream().filter(type::isInstance).map(type::cast)
                .filter(o -> o.getMetadata().getName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + type.getSimpleName() + " " + name + " in " + folder));
    }

    /** Every object of {@code type}. */
    public <T extends HasMetadata> List<T> all(Class<T> type) {
        return objects.stream().filter(type::isInstance).map(type::cast).toList();
    }

    /** The files the {@code secretGenerator} entries read, by the Secret's name, relative to the folder. */
    public Map<String, List<String>> generatedSecretFiles() {
        Map<String, List<String>> files = new LinkedHashMap<>();
        for (JsonNode generator : kustomization.path("secretGenerator")) {
            List<String> paths = new ArrayList<>();
            generator.path("files").forEach(f -> paths.add(f.asText().substring(f.asText().indexOf('=') + 1)));
            files.put(generator.path("name").asText(), paths);
        }
        return files;
    }

    /** Every container of a StatefulSet's pods: init (and native sidecar) containers first. */
    public static List<Container> containers(StatefulSet set) {
        PodSpec pod = set.getSpec().getTemplate().getSpec();
        List<Container> all = new ArrayList<>(pod.getInitContainers());
        all.addAll(pod.getContainers());
        return all;
    }

    /** A container's environment variables with a literal value (not one taken from a field or a Secret). */
    public static Map<String, String> literalEnvironment(Container container) {
        Map<String, String> env = new LinkedHashMap<>();
        container.getEnv().forEach(e -> env.put(e.getName(), e.getValue()));
        return env;
    }
}

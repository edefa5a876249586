package dev.cairn.demo.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What every Cairn pod's security settings must say: Kubernetes' "restricted" Pod Security Standard (non-root, no
 * privilege escalation, every capability dropped, the runtime's seccomp profile) and a read-only root file system,
 * as the images' user. In: a StatefulSet and the images' {@code uid:gid}. Out: assertions.
 */
final class PodSecurity {

    private PodSecurity() {
    }

    /** The pods of {@code set} run as {@code user} ({@code uid:gid}), restricted, on a read-only root. */
    static void assertRestricted(StatefulSet set, String user) {
        long uid = Long.parseLong(user.substring(0, user.indexOf(':')));
        long gid = Long.parseLong(user.substring(user.indexOf(':') + 1));
        PodSecurityContext pod = set.getSpec().getTemplate().getSpec().getSecurityContext();
        assertThat(pod).as("the pod's securityContext of %s", set.getMetadata().getName()).isNotNull();
        assertThat(pod.getRunAsNonRoot()).isTrue();
        assertThat(pod.getRunAsUser()).as("the images' USER").isEqualTo(uid);
        assertThat(pod.getRunAsGroup()).isEqualTo(gid);
        assertThat(pod.getFsGroup()).as("volumes writable by the user").isEqualTo(gid);
        assertThat(pod.getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
        for (Container container : KustomizeTree.containers(set)) {
            SecurityContext own = container.getSecurityContext();
            assertThat(own).as("the securityContext of container %s", container.getName()).isNotNull();
            assertThat(own.getAllowPrivilegeEscalation()).isFalse();
            assertThat(own.getReadOnlyRootFilesystem()).isTrue();
            assertThat(own.getCapabilities().getDrop()).containsExactly("ALL");
            assertThat(own.getCapabilities().getAdd()).isEmpty();
            assertThat(own.getPrivileged()).isNotEqualTo(Boolean.TRUE);
            assertThat(own.getRunAsUser()).as("no container overrides the pod's user").isNull();
            assertThat(mounts(container)).as("the JVM writes to /tmp").containsKey("/tmp");
        }
        set.getSpec().getTemplate().getSpec().getVolumes().stream().filter(v -> v.getSecret() != null)
                .forEach(v -> assertThat(v.getSecret().getDefaultMode()).as("0440: the owner root, the group the "
                        + "user's (fsGroup)").isEqualTo(0440));
    }

    /** A container's volume mounts by mount path. */
    static Map<String, VolumeMount> mounts(Container container) {
        Map<String, VolumeMount> mounts = new LinkedHashMap<>();
        container.getVolumeMounts().forEach(m -> mounts.put(m.getMountPath(), m));
        return mounts;
    }

    /** Nothing in {@code folder} but its .gitignore is ever committed. */
    static void assertIgnoredByGit(Path folder) {
        try {
            assertThat(Files.readAllLines(folder.resolve(".gitignore"))).as("%s/.gitignore", folder)
                    .contains("*", "!.gitignore");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

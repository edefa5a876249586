package dev.cairn.faults;

import dev.cairn.auth.SigningKey;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * The master key of a fault run, as an operator would deploy it: a new random key written (Base64, as
 * {@code cairn keys generate} writes it) to a file readable by its owner only, which every coordinator process of
 * the run reads with {@code --sidecar-master-key-file}; the run's sidecars get their job's key derived from it,
 * and its requests are signed with the requests key derived from it, so every record on the acks and requests topics
 * is signed and the coordinators run in their secured default.
 *
 * @param key the master key
 * @param file the key file the coordinators read
 */
record SidecarMasterKey(SigningKey key, Path file) {

    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

    /** Generates a master key and writes it to a new file {@code dir/sidecar-master.key}. */
    static SidecarMasterKey writeTo(Path dir) {
        SigningKey key = SigningKey.generate();
        Path file = dir.resolve("sidecar-master.key");
        try {
            if (Files.getFileStore(dir).supportsFileAttributeView("posix")) {
                Files.createFile(file, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
            } else {
                Files.createFile(file);
            }
            Files.writeString(file, key.toBase64() + "\n", StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the sidecar master key to " + file, e);
        }
        return new SidecarMasterKey(key, file);
    }

    /** The key that {@code jobId}'s sidecars sign with (the coordinators derive the same one). */
    SigningKey jobKey(String jobId) {
        return key.jobKey(jobId);
    }
}

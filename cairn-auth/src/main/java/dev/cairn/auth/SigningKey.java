package dev.cairn.auth;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A secret HMAC-SHA256 key: the operator's master key, or a key derived from it. A job's key is
 * {@code HMAC-SHA256(master, "cairn.job-key.v1:" + jobId)}: the coordinator, which holds the master key,
 * derives every job's key on its own, and the operator hands each job's sidecars their job's key only, so a
 * sidecar of one job cannot sign records of another. The requests key is
 * {@code HMAC-SHA256(master, "cairn.requests-key.v1")}: what the REST API and the CLI sign records of the requests
 * topic with. Its context has no job id and another prefix, so no job id derives it, and neither a job key nor
 * the requests key reveals the master key or another derived key. Keys are written as Base64 (standard
 * alphabet) of at least {@value #MIN_BYTES} bytes; {@link #toString()} never shows the secret.
 *
 * <p>Every key has a public {@link #id()}: the hex of the first {@value #ID_BYTES} bytes of
 * {@code SHA-256("cairn.key-id.v1:" + key)}. Signers send it beside the signature, so that a verifier holding several
 * keys (during a rotation) knows which one to check; it reveals nothing of the key.
 */
public final class SigningKey {

    /** HMAC-SHA256 keys shorter than its output weaken it. */
    public static final int MIN_BYTES = 32;
    /** How many bytes of the SHA-256 of the key its {@link #id()} shows (16 hex digits). */
    public static final int ID_BYTES = 8;
    static final String ALGORITHM = "HmacSHA256";
    private static final String JOB_KEY_CONTEXT = "cairn.job-key.v1:";
    private static final String REQUESTS_KEY_CONTEXT = "cairn.requests-key.v1";
    private static final String KEY_ID_CONTEXT = "cairn.key-id.v1:";

    private final byte[] secret;
    private final String id;
    /** One initialised MAC per thread: computing a signature costs the hash only, not a provider look-up. */
    private final ThreadLocal<Mac> macs;

    private SigningKey(byte[] secret) {
        this.secret = secret.clone();
        this.id = idOf(this.secret);
        SecretKeySpec spec = new SecretKeySpec(this.secret, ALGORITHM);
        this.macs = ThreadLocal.withInitial(() -> {
            try {
                Mac mac = Mac.getInstance(ALGORITHM);
                mac.init(spec);
                return mac;
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("HmacSHA256 is part of every JDK: " + e, e);
            }
        });
    }

    /** A new random key of {@value #MIN_BYTES} bytes (for {@code cairn keys generate}). */
    public static SigningKey generate() {
        byte[] bytes = new byte[MIN_BYTES];
        new SecureRandom().nextBytes(bytes);
        return new SigningKey(bytes);
    }

    /**
     * @param base64 the key in Base64, surrounding white space ignored
     * @throws IllegalArgumentException when it is not Base64 or shorter than {@value #MIN_BYTES} bytes
     */
    public static SigningKey fromBase64(String base64) {
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(base64.strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the key is not Base64: " + e.getMessage(), e);
        }
        if (bytes.length < MIN_BYTES) {
            throw new IllegalArgumentException("the key has " + bytes.length + " bytes; at least " + MIN_BYTES
                    + " are needed (make one with `cairn keys generate`)");
        }
        return new SigningKey(bytes);
    }

    /**
     * Reads a key file: its whole content is the key in Base64.
     *
     * @throws IllegalArgumentException naming the file when it cannot be read or holds no valid key
     */
    public static SigningKey fromFile(Path file) {
        String content;
        try {
            content = Files.readString(file, StandardCharsets.US_ASCII);
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("cannot read the key file " + file + ": " + e.getMessage(), e);
        }
        try {
            return fromBase64(content);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the key file " + file + " holds no valid key: " + e.getMessage(), e);
        }
    }

    /** The key of {@code jobId}'s sidecars, derived from this master key. */
    public SigningKey jobKey(String jobId) {
        return new SigningKey(mac((JOB_KEY_CONTEXT + jobId).getBytes(StandardCharsets.UTF_8)));
    }

    /** The key that signs records of the requests topic (job specs, trigger requests), derived from this master key. */
    public SigningKey requestsKey() {
        return new SigningKey(mac(REQUESTS_KEY_CONTEXT.getBytes(StandardCharsets.UTF_8)));
    }

    /** HMAC-SHA256 of {@code data} under this key. */
    public byte[] mac(byte[] data) {
        return macs.get().doFinal(data);
    }

    /** Whether {@code signature} is this key's MAC of {@code data}, compared in constant time. */
    public boolean verifies(byte[] data, byte[] signature) {
        return signature != null && MessageDigest.isEqual(mac(data), signature);
    }

    /**
     * The key's public id, 16 lowercase hex digits: the first {@value #ID_BYTES} bytes of
     * {@code SHA-256("cairn.key-id.v1:" + key)}. What the header {@value RecordSignatures#KEY_ID_HEADER} carries and
     * {@code cairn keys} prints, so that an operator can tell keys apart without seeing them.
     */
    public String id() {
        return id;
    }

    private static String idOf(byte[] secret) {
        try {
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            sha256.update(KEY_ID_CONTEXT.getBytes(StandardCharsets.US_ASCII));
            return HexFormat.of().formatHex(sha256.digest(secret), 0, ID_BYTES);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK: " + e, e);
        }
    }

    /** The key in Base64, for writing it to a key file. */
    public String toBase64() {
        return Base64.getEncoder().encodeToString(secret);
    }

    @Override
    public String toString() {
        return "SigningKey[id " + id + ", " + secret.length + " bytes, secret]";
    }
}

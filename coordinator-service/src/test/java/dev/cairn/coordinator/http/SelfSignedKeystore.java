package dev.cairn.coordinator.http;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/** A PKCS12 keystore with a self-signed certificate for 127.0.0.1 and localhost, made by the JDK's keytool. */
public final class SelfSignedKeystore {

    public static final String PASSWORD = "keystore-secret";

    private SelfSignedKeystore() {
    }

    /** Creates {@code dir/cairn.p12}, protected by {@link #PASSWORD}. */
    public static Path create(Path dir) throws IOException, InterruptedException {
        Path keystore = dir.resolve("cairn.p12");
        Process keytool = new ProcessBuilder(keytool(), "-genkeypair", "-alias", "cairn", "-keyalg", "EC",
                "-groupname", "secp256r1", "-validity", "2", "-dname", "CN=localhost",
                "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-storetype", "PKCS12", "-keystore", keystore.toString(),
                "-storepass", PASSWORD, "-keypass", PASSWORD).redirectErrorStream(true).start();
        String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!keytool.waitFor(60, TimeUnit.SECONDS) || keytool.exitValue() != 0 || !Files.exists(keystore)) {
            throw new IllegalStateException("keytool failed: " + output);
        }
        return keystore;
    }

    /** A TLS client context that trusts the certificate of {@code keystore}. */
    public static SSLContext trusting(Path keystore) throws IOException, GeneralSecurityException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = new FileInputStream(keystore.toFile())) {
            store.load(in, PASSWORD.toCharArray());
        }
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(store);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        return context;
    }

    private static String keytool() {
        String javaHome = System.getenv().getOrDefault("JAVA_HOME", System.getProperty("java.home"));
        Path running = Path.of(System.getProperty("java.home"), "bin", "keytool");
        for (Path candidate : List.of(Path.of(javaHome, "bin", "keytool"), running)) {
            if (Files.isExecutable(candidate)) {
                return candidate.toString();
            }
        }
        return "keytool";
    }
}

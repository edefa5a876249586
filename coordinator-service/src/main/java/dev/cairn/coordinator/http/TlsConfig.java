package dev.cairn.coordinator.http;

import dev.cairn.coordinator.rest.routes.Forwarder;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.UnrecoverableKeyException;
import java.util.Collections;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * HTTPS for the REST API: the server's key and certificate (a PKCS12 keystore) and the certificates it
 * trusts when it forwards a GET to another instance (a PKCS12 truststore; the JDK's default trust when
 * none is given). Both stores are loaded at start-up, so that a missing file or a wrong password stops
 * start-up with a message naming the flag.
 */
public final class TlsConfig {

    private final KeyStore keyStore;
    private final char[] keyStorePassword;
    private final KeyStore trustStore;

    private TlsConfig(KeyStore keyStore, char[] keyStorePassword, KeyStore trustStore) {
        this.keyStore = keyStore;
        this.keyStorePassword = keyStorePassword.clone();
        this.trustStore = trustStore;
    }

    /**
     * Loads the stores.
     *
     * @param keyStoreFile the server's PKCS12 keystore (flag {@code --http-tls-keystore})
     * @param keyStorePassword its password, also the key's
     * @param trustStoreFileOrNull the PKCS12 truststore used to reach other instances; {@code null}: the
     *     JDK's default trust
     * @param trustStorePasswordOrNull its password
     * @throws IllegalArgumentException naming the flag of the file or password that does not work
     */
    public static TlsConfig load(Path keyStoreFile, char[] keyStorePassword, Path trustStoreFileOrNull,
            char[] trustStorePasswordOrNull) {
        KeyStore keyStore = read(keyStoreFile, keyStorePassword, "--http-tls-keystore");
        try {
            if (Collections.list(keyStore.aliases()).stream().noneMatch(alias -> isKey(keyStore, alias))) {
                throw new IllegalArgumentException("--http-tls-keystore: " + keyStoreFile + " holds no private key");
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("--http-tls-keystore: cannot list " + keyStoreFile + ": " + e, e);
        }
        KeyStore trustStore = trustStoreFileOrNull == null ? null
                : read(trustStoreFileOrNull, trustStorePasswordOrNull, "--http-tls-truststore");
        return new TlsConfig(keyStore, keyStorePassword, trustStore);
    }

    /** The server side, for Jetty's TLS connector. */
    SslContextFactory.Server serverContextFactory() {
        SslContextFactory.Server factory = new SslContextFactory.Server();
        factory.setKeyStore(keyStore);
        factory.setKeyStorePassword(new String(keyStorePassword));
        factory.setKeyManagerPassword(new String(keyStorePassword));
        return factory;
    }

    /** The client side, for the {@link Forwarder}: trusts the truststore (or the JDK's default trust). */
    SSLContext clientContext() {
        try {
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(trustStore);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("--http-tls-truststore: cannot build a TLS client from it: " + e, e);
        }
    }

    private static boolean isKey(KeyStore store, String alias) {
        try {
            return store.isKeyEntry(alias);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    private static KeyStore read(Path file, char[] password, String flag) {
        if (!Files.isReadable(file)) {
            throw new IllegalArgumentException(flag + ": cannot read " + file);
        }
        if (password == null) {
            throw new IllegalArgumentException(flag + " needs " + flag + "-password or " + flag + "-password-file");
        }
        try (InputStream in = Files.newInputStream(file)) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, password);
            return store;
        } catch (IOException e) {
            boolean wrongPassword = e.getCause() instanceof UnrecoverableKeyException
                    || String.valueOf(e.getMessage()).contains("password");
            if (wrongPassword) {
                throw new IllegalArgumentException(flag + "-password does not open " + file
                        + " (wrong password?): " + e.getMessage(), e);
            }
            throw new IllegalArgumentException(flag + ": " + file + " is not a PKCS12 keystore: " + e.getMessage(), e);
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException(flag + ": cannot load " + file + ": " + e.getMessage(), e);
        }
    }
}

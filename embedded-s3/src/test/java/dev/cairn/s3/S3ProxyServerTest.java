package dev.cairn.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/** The in-JVM S3 server, talked to through the AWS SDK for Java 2 as the worker kit talks to S3. */
class S3ProxyServerTest {

    @RegisterExtension
    static final S3ServerExtension S3 = new S3ServerExtension("proxy-test");

    private static S3Client client;

    @BeforeAll
    static void connect() {
        client = client(S3ProxyServer.SECRET_KEY, RequestChecksumCalculation.WHEN_REQUIRED);
    }

    /** A client as the settings say: S3Proxy knows no flexible checksums, so only those a request needs. */
    private static S3Client client(String secretKey, RequestChecksumCalculation checksums) {
        S3ProxyServer server = S3.server();
        return S3Client.builder().endpointOverride(server.endpoint()).forcePathStyle(true)
                .region(Region.of(server.region())).httpClient(UrlConnectionHttpClient.create())
                .requestChecksumCalculation(checksums)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(
                        server.accessKey(), secretKey)))
                .build();
    }

    @AfterAll
    static void disconnect() {
        client.close();
    }

    @BeforeEach
    void clear() {
        S3.server().clear();
    }

    @Test
    void shouldServeWhatAClientPutWhenTheClientGetsItBack() {
        // given
        byte[] bytes = "counter 42\n".getBytes(StandardCharsets.UTF_8);

        // when
        client.putObject(put -> put.bucket("proxy-test").key("job/chk-1/state"), RequestBody.fromBytes(bytes));

        // then
        assertThat(client.getObjectAsBytes(get -> get.bucket("proxy-test").key("job/chk-1/state")).asByteArray())
                .isEqualTo(bytes);
        assertThat(S3.server().read("job/chk-1/state")).isEqualTo(bytes);
    }

    @Test
    void shouldRefuseAPutWhenItCarriesATrailingChecksum() {
        // given a client sending the SDK's flexible checksums (a CRC-32 trailer after a chunked body)
        try (S3Client flexible = client(S3ProxyServer.SECRET_KEY, RequestChecksumCalculation.WHEN_SUPPORTED)) {

            // when / then: why the server's settings turn them off
            assertThatThrownBy(() -> flexible.putObject(put -> put.bucket("proxy-test").key("crc")
                    .checksumAlgorithm(ChecksumAlgorithm.CRC32), RequestBody.fromBytes(new byte[] {1, 2, 3})))
                    .isInstanceOf(S3Exception.class);
            assertThat(S3.server().keys("")).doesNotContain("crc");
            assertThat(S3.server().settings()).containsEntry("s3.flexible-checksums", "false");
        }
    }

    @Test
    void shouldRefuseAPutWhenItsContentMd5DoesNotMatch() throws Exception {
        // given the MD5 of other bytes
        byte[] md5 = MessageDigest.getInstance("MD5").digest(new byte[] {1});

        // when / then
        assertThatThrownBy(() -> client.putObject(put -> put.bucket("proxy-test").key("bad-md5")
                .contentMD5(Base64.getEncoder().encodeToString(md5)), RequestBody.fromBytes(new byte[] {2})))
                .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.awsErrorDetails().errorCode())
                        .isEqualTo("BadDigest"));
        assertThat(S3.server().keys("")).doesNotContain("bad-md5");
    }

    @Test
    void shouldCountObjectsAndBytesWhenListingAPrefix() {
        // given
        S3.server().overwrite("job/chk-1/a", new byte[10]);
        S3.server().overwrite("job/chk-1/b", new byte[5]);
        S3.server().overwrite("job/chk-2/a", new byte[7]);
        S3.server().overwrite("other/a", new byte[100]);

        // when
        S3ProxyServer.StoredObjects chk1 = S3.server().objects("job/chk-1/");
        S3ProxyServer.StoredObjects job = S3.server().objects("job/");

        // then
        assertThat(chk1).isEqualTo(new S3ProxyServer.StoredObjects(2, 15));
        assertThat(job).isEqualTo(new S3ProxyServer.StoredObjects(3, 22));
        assertThat(S3.server().keys("job/")).containsExactlyInAnyOrder("job/chk-1/a", "job/chk-1/b", "job/chk-2/a");
    }

    @Test
    void shouldAnswerNoSuchKeyWhenTheObjectIsMissing() {
        assertThatThrownBy(() -> client.getObjectAsBytes(get -> get.bucket("proxy-test").key("nothing")))
                .isInstanceOf(NoSuchKeyException.class);
    }

    @Test
    void shouldRefuseAClientWhenItsSecretKeyIsWrong() {
        try (S3Client stranger = client("wrong", RequestChecksumCalculation.WHEN_REQUIRED)) {
            assertThatThrownBy(() -> stranger.putObject(put -> put.bucket("proxy-test").key("x"),
                    RequestBody.fromBytes(new byte[] {1}))).isInstanceOfSatisfying(S3Exception.class,
                            e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("SignatureDoesNotMatch"));
            assertThat(S3.server().keys("")).doesNotContain("x");
        }
    }

    @Test
    void shouldNameTheSettingsOfTheWorkerKitWhenAskedForClientSettings() {
        assertThat(S3.server().settings()).containsEntry("s3.endpoint", S3.server().endpoint().toString())
                .containsEntry("s3.path-style-access", "true").containsEntry("s3.access-key", S3ProxyServer.ACCESS_KEY)
                .containsKeys("s3.region", "s3.secret-key");
        assertThat(S3.server().location("a/b")).isEqualTo("s3://proxy-test/a/b");
    }
}

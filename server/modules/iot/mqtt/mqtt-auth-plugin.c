/*
 * Twinscape's mosquitto plugin (issue 17): devices speak ThingsBoard's MQTT device API, so every
 * device connects with its access token as the user name and publishes to the same two topics,
 * v1/devices/me/telemetry and v1/devices/me/attributes. Stock mosquitto can neither check such a
 * token against hashes nor tell the subscriber which device sent a message on a shared topic;
 * this plugin does both:
 *
 *   - CONNECT: a device's user name is accepted when its SHA-256 (hex) is in the credentials
 *     file the server writes (the database keeps only these hashes too); the server's own
 *     client is `twinscape-ingest` with a password whose SHA-256 is in the same file.
 *   - ACL: a device may publish only to its two topics and subscribe only under v1/devices/me/;
 *     the server may only read twinscape/in/#. Nothing else is allowed to anyone.
 *   - PUBLISH: a device's message is moved to twinscape/in/<token hash>/<telemetry|attributes>
 *     before it is routed, so no device can speak for another, and the subscriber knows the
 *     sender. A token revoked since the device connected is refused and the device disconnected.
 *
 * The credentials file is read again whenever it changes (the server replaces it atomically).
 * Lines: "s <hash>" for the server's password, "d <hash>" for each device token.
 * Built by server/modules/iot/mqtt/mqtt-broker.ts with gcc against Debian's mosquitto-dev.
 */
#include <openssl/evp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <mosquitto.h>
#include <mosquitto_broker.h>
#include <mosquitto_plugin.h>

#define HASH_HEX 64
#define SERVER_USERNAME "twinscape-ingest"
#define TELEMETRY_TOPIC "v1/devices/me/telemetry"
#define ATTRIBUTES_TOPIC "v1/devices/me/attributes"
#define DEVICE_PREFIX "v1/devices/me/"
#define INGEST_PREFIX "twinscape/in/"

static mosquitto_plugin_id_t *plugin_id = NULL;
static char *credentials_path = NULL;
static struct stat credentials_stat;
static bool credentials_loaded = false;
static char server_hash[HASH_HEX + 1] = "";
static char (*device_hashes)[HASH_HEX + 1] = NULL;
static size_t device_count = 0;

static int compare_hashes(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

static void sha256_hex(const char *text, char out[HASH_HEX + 1])
{
	unsigned char digest[EVP_MAX_MD_SIZE];
	unsigned int length = 0;
	static const char digits[] = "0123456789abcdef";
	out[0] = '\0';
	if(!EVP_Digest(text, strlen(text), digest, &length, EVP_sha256(), NULL) || length != 32) return;
	for(unsigned int i = 0; i < length; i++){
		out[i * 2] = digits[digest[i] >> 4];
		out[i * 2 + 1] = digits[digest[i] & 15];
	}
	out[HASH_HEX] = '\0';
}

static bool is_hash(const char *text)
{
	if(strlen(text) != HASH_HEX) return false;
	for(const char *c = text; *c; c++){
		if(!((*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'f'))) return false;
	}
	return true;
}

/* Reads the credentials file again when it was replaced or changed; keeps the old set when it
 * cannot be read (a server writing it will have renamed a complete file into place). */
static void refresh_credentials(void)
{
	struct stat now;
	if(stat(credentials_path, &now) != 0) return;
	if(credentials_loaded && now.st_ino == credentials_stat.st_ino
			&& now.st_mtim.tv_sec == credentials_stat.st_mtim.tv_sec
			&& now.st_mtim.tv_nsec == credentials_stat.st_mtim.tv_nsec
			&& now.st_size == credentials_stat.st_size){
		return;
	}
	FILE *file = fopen(credentials_path, "r");
	if(!file) return;
	size_t capacity = 64, count = 0;
	char (*hashes)[HASH_HEX + 1] = malloc(capacity * sizeof(*hashes));
	char server[HASH_HEX + 1] = "";
	char line[256];
	while(hashes && fgets(line, sizeof(line), file)){
		line[strcspn(line, "\r\n")] = '\0';
		if(strlen(line) < 2 || line[1] != ' ' || !is_hash(line + 2)) continue;
		if(line[0] == 's'){
			strcpy(server, line + 2);
		}else if(line[0] == 'd'){
			if(count == capacity){
				capacity *= 2;
				void *grown = realloc(hashes, capacity * sizeof(*hashes));
				if(!grown){ free(hashes); hashes = NULL; break; }
				hashes = grown;
			}
			strcpy(hashes[count++], line + 2);
		}
	}
	fclose(file);
	if(!hashes) return;
	qsort(hashes, count, sizeof(*hashes), compare_hashes);
	free(device_hashes);
	device_hashes = hashes;
	device_count = count;
	strcpy(server_hash, server);
	credentials_stat = now;
	credentials_loaded = true;
}

static bool is_device_hash(const char *hash)
{
	return device_count > 0 && bsearch(hash, device_hashes, device_count, sizeof(*device_hashes), compare_hashes) != NULL;
}

static bool is_server(struct mosquitto *client)
{
	const char *username = mosquitto_client_username(client);
	return username != NULL && strcmp(username, SERVER_USERNAME) == 0;
}

static int on_basic_auth(int event, void *event_data, void *user_data)
{
	struct mosquitto_evt_basic_auth *ed = event_data;
	char hash[HASH_HEX + 1];
	(void)event;
	(void)user_data;
	if(ed->username == NULL || ed->username[0] == '\0') return MOSQ_ERR_AUTH;
	refresh_credentials();
	if(strcmp(ed->username, SERVER_USERNAME) == 0){
		if(ed->password == NULL || server_hash[0] == '\0') return MOSQ_ERR_AUTH;
		sha256_hex(ed->password, hash);
		return strcmp(hash, server_hash) == 0 ? MOSQ_ERR_SUCCESS : MOSQ_ERR_AUTH;
	}
	sha256_hex(ed->username, hash);
	return is_device_hash(hash) ? MOSQ_ERR_SUCCESS : MOSQ_ERR_AUTH;
}

static bool starts_with(const char *text, const char *prefix)
{
	return strncmp(text, prefix, strlen(prefix)) == 0;
}

static int on_acl_check(int event, void *event_data, void *user_data)
{
	struct mosquitto_evt_acl_check *ed = event_data;
	(void)event;
	(void)user_data;
	if(ed->topic == NULL) return MOSQ_ERR_ACL_DENIED;
	if(is_server(ed->client)){
		bool reads = ed->access == MOSQ_ACL_SUBSCRIBE || ed->access == MOSQ_ACL_READ;
		return reads && starts_with(ed->topic, INGEST_PREFIX) ? MOSQ_ERR_SUCCESS : MOSQ_ERR_ACL_DENIED;
	}
	if(ed->access == MOSQ_ACL_WRITE){
		bool known = strcmp(ed->topic, TELEMETRY_TOPIC) == 0 || strcmp(ed->topic, ATTRIBUTES_TOPIC) == 0;
		return known ? MOSQ_ERR_SUCCESS : MOSQ_ERR_ACL_DENIED;
	}
	/* a device's own replies would come here; no wildcard may reach beyond it */
	if(ed->access == MOSQ_ACL_SUBSCRIBE || ed->access == MOSQ_ACL_READ){
		return starts_with(ed->topic, DEVICE_PREFIX) && strchr(ed->topic, '#') == NULL
			? MOSQ_ERR_SUCCESS : MOSQ_ERR_ACL_DENIED;
	}
	return MOSQ_ERR_ACL_DENIED;
}

static int on_message(int event, void *event_data, void *user_data)
{
	struct mosquitto_evt_message *ed = event_data;
	const char *kind;
	const char *username;
	char hash[HASH_HEX + 1];
	(void)event;
	(void)user_data;
	if(is_server(ed->client)) return MOSQ_ERR_ACL_DENIED;
	if(strcmp(ed->topic, TELEMETRY_TOPIC) == 0) kind = "telemetry";
	else if(strcmp(ed->topic, ATTRIBUTES_TOPIC) == 0) kind = "attributes";
	else return MOSQ_ERR_ACL_DENIED;
	username = mosquitto_client_username(ed->client);
	if(username == NULL) return MOSQ_ERR_ACL_DENIED;
	refresh_credentials();
	sha256_hex(username, hash);
	if(!is_device_hash(hash)){
		/* revoked or rotated since it connected */
		mosquitto_kick_client_by_username(username, false);
		return MOSQ_ERR_ACL_DENIED;
	}
	size_t length = strlen(INGEST_PREFIX) + HASH_HEX + 1 + strlen(kind) + 1;
	char *topic = mosquitto_malloc(length);
	if(topic == NULL) return MOSQ_ERR_NOMEM;
	snprintf(topic, length, "%s%s/%s", INGEST_PREFIX, hash, kind);
	mosquitto_free(ed->topic);
	ed->topic = topic;
	/* a retained copy would be ingested again each time the server subscribes */
	ed->retain = false;
	return MOSQ_ERR_SUCCESS;
}

int mosquitto_plugin_version(int supported_version_count, const int *supported_versions)
{
	for(int i = 0; i < supported_version_count; i++){
		if(supported_versions[i] == 5) return 5;
	}
	return -1;
}

int mosquitto_plugin_init(mosquitto_plugin_id_t *identifier, void **user_data, struct mosquitto_opt *opts, int opt_count)
{
	(void)user_data;
	for(int i = 0; i < opt_count; i++){
		if(strcmp(opts[i].key, "credentials") == 0) credentials_path = mosquitto_strdup(opts[i].value);
	}
	if(credentials_path == NULL){
		mosquitto_log_printf(MOSQ_LOG_ERR, "twinscape-auth: plugin_opt_credentials is required");
		return MOSQ_ERR_INVAL;
	}
	plugin_id = identifier;
	refresh_credentials();
	if(mosquitto_callback_register(plugin_id, MOSQ_EVT_BASIC_AUTH, on_basic_auth, NULL, NULL)
			|| mosquitto_callback_register(plugin_id, MOSQ_EVT_ACL_CHECK, on_acl_check, NULL, NULL)
			|| mosquitto_callback_register(plugin_id, MOSQ_EVT_MESSAGE, on_message, NULL, NULL)){
		return MOSQ_ERR_UNKNOWN;
	}
	return MOSQ_ERR_SUCCESS;
}

int mosquitto_plugin_cleanup(void *user_data, struct mosquitto_opt *opts, int opt_count)
{
	(void)user_data;
	(void)opts;
	(void)opt_count;
	mosquitto_callback_unregister(plugin_id, MOSQ_EVT_BASIC_AUTH, on_basic_auth, NULL);
	mosquitto_callback_unregister(plugin_id, MOSQ_EVT_ACL_CHECK, on_acl_check, NULL);
	mosquitto_callback_unregister(plugin_id, MOSQ_EVT_MESSAGE, on_message, NULL);
	free(device_hashes);
	device_hashes = NULL;
	mosquitto_free(credentials_path);
	credentials_path = NULL;
	return MOSQ_ERR_SUCCESS;
}

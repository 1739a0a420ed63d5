/*
 * triage-rules: the built-in rules table and the parser of the rules
 * format (query/triage-rules.h).  The rules are those of Android's own
 * tools, named by the methods that show them in a method trace:
 * StrictMode's violations, Perfetto's slow-start reasons and blocking
 * calls, Android vitals' slow and frozen frames, the ANR limits, and
 * Sentry's detectors for the same ART method traces.
 */
#include "config.h"

#include "query/triage-rules.h"

#include "util/alloc.h"
#include "util/pattern.h"

#include <ctype.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* clang-format off */
const char triage_builtin_rules[] =
"# ID\tCATEGORY\tTHREADS\tWHEN\tSEVERITY\tERROR\tFLAGS\tPATTERN\tSOURCE\n"
"R1\tstrictmode-disk\tmain\tcount>=1\twarn\t-\t-\t"
	"^(dalvik\\.system\\.BlockGuard\\$[0-9]+|android\\.os\\.StrictMode\\$AndroidBlockGuardPolicy)\\.on(ReadFromDisk|WriteToDisk)( |$)\t"
	"StrictMode detectDiskReads/detectDiskWrites: its BlockGuard hook\n"
"R2\tdisk-io\tmain\ttotal>=16ms\twarn\ttotal>=450ms\tcause\t"
	"^(libcore\\.io\\.(BlockGuardOs|IoBridge|Linux|Posix)\\.(open|read|pread|readv|write|pwrite|writev|fsync|fdatasync|fstat|stat|lstat|access|mkdir|rename|remove|ftruncate|lseek)( |$)|java\\.io\\.(FileInputStream|FileOutputStream|RandomAccessFile)\\.|java\\.io\\.File\\.(exists|isDirectory|isFile|length|list|listFiles|mkdirs?|delete|renameTo|createNewFile|lastModified|canRead|canWrite)( |$)|java\\.io\\.UnixFileSystem\\.|sun\\.nio\\.ch\\.FileChannelImpl\\.|java\\.nio\\.file\\.Files\\.|android\\.os\\.FileUtils\\.|android\\.content\\.res\\.AssetManager\\.open)\t"
	"Sentry File I/O on Main Thread 16 ms; Perfetto blocking I/O 450 ms\n"
"R3\tshared-prefs\tmain\ttotal>=16ms\twarn\t-\tcause\t"
	"^(android\\.app\\.SharedPreferencesImpl(\\$EditorImpl)?\\.|android\\.app\\.ContextImpl\\.getSharedPreferences( |$)|android\\.app\\.QueuedWork\\.waitToFinish( |$)|androidx\\.datastore\\.)\t"
	"StrictMode disk read (SharedPreferencesImpl.awaitLoadedLocked)\n"
"R4\tsqlite\tmain\ttotal>=16ms\twarn\t-\tcause\t"
	"^(android\\.database\\.sqlite\\.|androidx\\.sqlite\\.|androidx\\.room\\.|net\\.sqlcipher\\.|de\\.greenrobot\\.dao\\.|org\\.greenrobot\\.greendao\\.|io\\.requery\\.android\\.database\\.)\t"
	"StrictMode disk I/O (SQLiteConnection.applyBlockGuardPolicy); Sentry sql\n"
"R5\tnetwork\tmain\tcount>=1\terror\t-\tcause\t"
	"^(java\\.net\\.(Socket|PlainSocketImpl|AbstractPlainSocketImpl|SocketInputStream|SocketOutputStream|Inet6AddressImpl|InetAddress\\.(getAllByName|getByName)|URL\\.openStream)|javax\\.net\\.ssl\\.SSLSocket|(com\\.android\\.org\\.|org\\.)conscrypt\\.[A-Za-z]*Socket[A-Za-z]*\\.|okhttp3\\.(RealCall|internal\\.connection\\.)|com\\.android\\.okhttp\\.internal\\.huc\\.HttpURLConnectionImpl\\.(connect|getInputStream|getOutputStream|getResponseCode)|libcore\\.io\\.(BlockGuardOs|IoBridge|Linux)\\.(connect|android_getaddrinfo|recvfrom|sendto|recvmsg|sendmsg|accept)( |$)|(dalvik\\.system\\.BlockGuard\\$[0-9]+|android\\.os\\.StrictMode\\$AndroidBlockGuardPolicy)\\.onNetwork( |$))\t"
	"StrictMode detectNetwork: NetworkOnMainThreadException\n"
"R6\tbinder\tmain\tcall>=20ms\twarn\tcall>=100ms\tcause\t"
	"^(android\\.os\\.BinderProxy\\.transact(Native)?( |$)|[^ ]*\\$Stub\\$Proxy\\.|android\\.content\\.ContentResolver\\.(query|insert|update|delete|call|acquire(Unstable)?Provider)( |$))\t"
	"Perfetto main-thread binder transactions blocked, 20 ms\n"
"R6n\tbinder\tmain\tcall>=20ms\twarn\tcall>=100ms\tcause\t"
	"^android::IPCThreadState::(transact|talkWithDriver|waitForResponse)\t"
	"simpleperf: the native side of a binder transaction\n"
"R7\twait\tmain\ttotal>=16ms\twarn\tcall>=100ms\tno-idle,cause\t"
	"^(java\\.lang\\.Thread\\.(sleep|join)|java\\.lang\\.Object\\.wait|(sun|jdk\\.internal)\\.misc\\.Unsafe\\.park|java\\.util\\.concurrent\\.locks\\.LockSupport\\.park|java\\.util\\.concurrent\\.(FutureTask\\.get|CountDownLatch\\.await|CyclicBarrier\\.await|Semaphore\\.acquire|CompletableFuture\\.(get|join))|java\\.util\\.concurrent\\.locks\\.Reentrant(ReadWrite)?Lock[^ ]*\\.lock|kotlinx\\.coroutines\\.BuildersKt(__BuildersKt)?\\.runBlocking|android\\.os\\.AsyncTask\\.get)\t"
	"Perfetto lock contention; ANR causes: lock contention, sleeps\n"
"R7n\twait\tmain\ttotal>=16ms\twarn\tcall>=100ms\tcause\t"
	"^art::(Monitor::(Lock|Wait)|gc::Heap::WaitForGcToComplete)\t"
	"simpleperf: ART's monitor and GC waits (Perfetto monitor contention, GC: Wait For)\n"
"R8\tclass-load\tmain\ttotal>=100ms\twarn\t-\t-\t"
	"^(dalvik\\.system\\.(DexFile|BaseDexClassLoader|DexPathList|PathClassLoader|DelegateLastClassLoader|InMemoryDexClassLoader)\\.|java\\.lang\\.ClassLoader\\.loadClass|java\\.lang\\.BootClassLoader\\.|java\\.lang\\.Class\\.(forName|classForName)|java\\.lang\\.VMClassLoader\\.|android\\.app\\.LoadedApk\\.(getClassLoader|createOrUpdateClassLoaderLocked))\t"
	"Perfetto OpenDexFilesFromOat and VerifyClass\n"
"R9\treflection\tmain\ttotal>=16ms\twarn\t-\t-\t"
	"^(java\\.lang\\.Class\\.(getDeclared(Methods|Fields|Constructors|Method|Field|Constructor|Annotations)|getMethods|getFields|getMethod|getField|getConstructor|newInstance|getAnnotations?|isAnnotationPresent)( |$)|java\\.lang\\.reflect\\.Proxy\\.(newProxyInstance|getProxyClass)( |$))\t"
	"reflection lookups, not Method.invoke (which holds what it calls)\n"
"R10\tinflate\tmain\tcall>=16ms\twarn\t-\t-\t"
	"^(android\\.view\\.LayoutInflater\\.(inflate|createViewFromTag|createView|rInflate)|android\\.view\\.View\\.inflate|androidx\\.appcompat\\.app\\.AppCompatViewInflater\\.createView)( |$)\t"
	"Perfetto view inflation; Sentry view_inflation 16 ms\n"
"R11\tresources\tmain\tcall>=16ms\twarn\t-\t-\t"
	"^(android\\.app\\.ResourcesManager\\.getResources( |$)|android\\.content\\.res\\.(AssetManager|ResourcesImpl|Resources|TypedArray|ApkAssets)\\.)\t"
	"Perfetto ResourcesManager#getResources\n"
"R12\tbitmap\tmain\tcall>=16ms\twarn\t-\t-\t"
	"^(android\\.graphics\\.(BitmapFactory|ImageDecoder|BitmapRegionDecoder)\\.|android\\.graphics\\.Bitmap\\.(createScaledBitmap|compress)( |$))\t"
	"Sentry image_decode 16 ms; Perfetto ImageDecoder#decode\n"
"R13\tserialization\tmain\ttotal>=16ms\twarn\t-\t-\t"
	"^(org\\.json\\.|com\\.google\\.gson\\.|com\\.squareup\\.moshi\\.|com\\.fasterxml\\.jackson\\.|kotlinx\\.serialization\\.json\\.|com\\.alibaba\\.fastjson\\.|android\\.util\\.Json(Reader|Writer)\\.|java\\.io\\.Object(Input|Output)Stream\\.|com\\.google\\.protobuf\\.)\t"
	"Sentry json_decode 16 ms\n"
"R14\tgc\tmain\tcount>=1\terror\t-\t-\t"
	"^(java\\.lang\\.(System|Runtime)\\.(gc|runFinalization)|java\\.lang\\.Runtime\\.nativeGc)( |$)\t"
	"StrictMode detectExplicitGc; Perfetto GC activity\n"
"R14a\tgc\tother\tcount>=1\twarn\t-\t-\t"
	"^(java\\.lang\\.(System|Runtime)\\.(gc|runFinalization)|java\\.lang\\.Runtime\\.nativeGc)( |$)\t"
	"StrictMode detectExplicitGc\n"
"R15\twebview\tmain\ttotal>=16ms\twarn\t-\t-\t"
	"^(android\\.webkit\\.(WebView\\.<init>|WebViewFactory\\.|WebSettings\\.getDefaultUserAgent|CookieManager\\.getInstance)|com\\.android\\.webview\\.chromium\\.|org\\.chromium\\.android_webview\\.)\t"
	"WebView initialisation on the main thread\n"
"R16\tproviders\tmain\tcall>=100ms\twarn\tcall>=10s\t-\t"
	"^(android\\.app\\.ActivityThread\\.install(ContentProviders|Provider)|android\\.content\\.ContentProvider\\.attachInfo|androidx\\.startup\\.(InitializationProvider|AppInitializer)\\.)\t"
	"App Startup library; ANR: content provider publish 10 s\n"
"R17\tframe\tany\tcall>16.667ms\twarn\tcall>700ms\t-\t"
	"^android\\.view\\.Choreographer\\.doFrame( |$)\t"
	"Android vitals: slow frames over 16 ms, frozen over 700 ms\n"
"R18\trender-wait\tmain\tcall>=16ms\twarn\t-\tcause\t"
	"^android\\.(view\\.ThreadedRenderer|graphics\\.HardwareRenderer)\\.nSyncAndDrawFrame( |$)\t"
	"Macrobenchmark frameDurationCpuMs: the UI thread waits for RenderThread\n"
"R19\tmessage\tmain\tcall>=700ms\twarn\tcall>=5s\tno-idle\t"
	"^android\\.os\\.Handler\\.dispatchMessage( |$)\t"
	"ANR: input dispatch 5 s; a message over a frozen frame\n"
"R19r\treceiver\tmain\tcall>=10s\terror\t-\t-\t"
	"^android\\.app\\.ActivityThread\\.handleReceiver( |$)\t"
	"ANR: foreground broadcast receiver 10 s\n"
"R19s\tservice\tmain\tcall>=20s\terror\t-\t-\t"
	"^android\\.app\\.ActivityThread\\.(handleCreateService|handleServiceArgs|handleBindService)( |$)\t"
	"ANR: foreground service 20 s\n"
"R20\tblocked\tmain\tcall>=16ms\twarn\t-\tblocked\t"
	".\t"
	"off the CPU with no visible cause (monitor contention, page faults, preemption): exclusive wall less cpu\n"
"R21\tcompute\tmain\ttotal>=16ms\twarn\t-\thot-frame\t"
	".\t"
	"an app method's exclusive cpu in one frame over a 60 Hz frame\n"
"R21s\tcompute\tmain\ttotal>=100ms\twarn\t-\thot-startup\t"
	".\t"
	"an app method's exclusive cpu in the startup window (android-methods-profiler: 84 % on CPU)\n"
"R22\tstrictmode-on\tany\tcount>=1\tinfo\t-\t-\t"
	"^android\\.os\\.StrictMode\\$(AndroidBlockGuardPolicy\\.(handleViolation|startHandlingViolationException)|[0-9]+\\.queueIdle)( |$)\t"
	"StrictMode penalties are on; their own cost\n"
"S1\tstartup\tmain\tcall>=1250ms\twarn\t-\t-\t"
	"^android\\.app\\.ActivityThread\\.handleBindApplication( |$)\t"
	"Perfetto time spent in bindApplication, 1.25 s\n";
/* clang-format on */

const char *
triage_severity_name(enum triage_severity s)
{
	return s == TRIAGE_ERROR ? "error" : s == TRIAGE_WARN ? "warn" : "info";
}

static const char *const measures[] = {"total", "call", "count"};

const char *
triage_kind_name(enum triage_kind k)
{
	static const char *const names[] = {"union", "blocked", "hot-frame",
	                                    "hot-startup"};

	return names[k];
}

/* "MEASURE OP NUMBER[UNIT]" into *w; false when malformed. */
static bool
parse_when(const char *s, struct triage_when *w)
{
	char *end;
	size_t i, n;
	double v;

	memset(w, 0, sizeof(*w));
	if (strcmp(s, "-") == 0)
		return true;
	for (i = 0; i < 3; i++) {
		n = strlen(measures[i]);
		if (strncmp(s, measures[i], n) == 0 &&
		    (s[n] == '>' || s[n] == ' '))
			break;
	}
	if (i == 3)
		return false;
	w->measure = (enum triage_measure)i;
	s += n;
	while (*s == ' ')
		s++;
	if (*s != '>')
		return false;
	s++;
	w->strict = *s != '=';
	if (*s == '=')
		s++;
	while (*s == ' ')
		s++;
	if (!isdigit((unsigned char)*s) && *s != '.')
		return false;
	v = strtod(s, &end);
	if (end == s || !isfinite(v) || v < 0)
		return false;
	if (w->measure == TRIAGE_COUNT) {
		if (*end)
			return false;
	} else if (!*end || strcmp(end, "ms") == 0) {
		v *= 1000;
	} else if (strcmp(end, "s") == 0) {
		v *= 1e6;
	} else if (strcmp(end, "us") != 0) {
		return false;
	}
	w->value = v;
	w->on = true;
	return true;
}

const char *
triage_when_text(char *buf, size_t size, const struct triage_when *w)
{
	if (!w->on)
		snprintf(buf, size, "-");
	else if (w->measure == TRIAGE_COUNT)
		snprintf(buf, size, "count%s%g",
		         w->strict ? ">" : ">=", w->value);
	else
		snprintf(buf, size, "%s%s%gms", measures[w->measure],
		         w->strict ? ">" : ">=", w->value / 1000);
	return buf;
}

bool
triage_rule_applies(const struct triage_rule *r, bool is_main)
{
	return r->threads == TRIAGE_ANY ||
	       (r->threads == TRIAGE_MAIN) == is_main;
}

bool
triage_when_holds(const struct triage_when *w, double total, double call,
                  double count)
{
	double v;

	if (!w->on)
		return false;
	v = w->measure == TRIAGE_TOTAL  ? total
	    : w->measure == TRIAGE_CALL ? call
	                                : count;
	return w->strict ? v > w->value : v >= w->value;
}

struct triage_rule *
triage_rules_find(const struct triage_rules *rules, const char *id)
{
	size_t i;

	for (i = 0; i < rules->count; i++)
		if (strcmp(rules->rules[i].id, id) == 0)
			return &rules->rules[i];
	return NULL;
}

static void
rule_done(struct triage_rule *r)
{
	free(r->id);
	free(r->category);
	free(r->pattern);
	free(r->source);
}

static void
clear_rules(struct triage_rules *rules)
{
	size_t i;

	for (i = 0; i < rules->count; i++)
		rule_done(&rules->rules[i]);
	rules->count = 0;
}

/* The fields of one line (modified in place), split at runs of tabs. */
static size_t
split_fields(char *line, char **field, size_t max)
{
	size_t n = 0;

	while (*line && n < max) {
		field[n++] = line;
		line += strcspn(line, "\t");
		if (!*line)
			break;
		*line++ = '\0';
		while (*line == '\t')
			line++;
	}
	return n;
}

static bool
valid_word(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '-' && *s != '_' &&
		    *s != '.')
			return false;
	return true;
}

/* FLAGS ("-" or a comma-separated list) into r; false when unknown. */
static bool
parse_flags(const char *s, struct triage_rule *r)
{
	static const char *const kinds[] = {"blocked", "hot-frame",
	                                    "hot-startup"};
	size_t n, i;

	if (strcmp(s, "-") == 0)
		return true;
	while (*s) {
		n = strcspn(s, ",");
		if (n == 7 && strncmp(s, "no-idle", n) == 0) {
			r->no_idle = true;
		} else if (n == 5 && strncmp(s, "cause", n) == 0) {
			r->cause = true;
		} else {
			for (i = 0; i < 3; i++)
				if (strlen(kinds[i]) == n &&
				    strncmp(s, kinds[i], n) == 0)
					break;
			if (i == 3 || r->kind != TRIAGE_UNION)
				return false;
			r->kind = (enum triage_kind)(i + 1);
		}
		s += n;
		if (*s == ',' && s[1])
			s++;
		else if (*s)
			return false;
	}
	return true;
}

/* One rule line into r; NULL, or why it is refused. */
static const char *
parse_rule(char **f, size_t n, struct triage_rule *r, char *msg, size_t size)
{
	static const char *const sevs[] = {"info", "warn", "error"};
	regex_t re;
	int i;

	memset(r, 0, sizeof(*r));
	if (n < 8)
		return "fewer than 8 tab-separated fields (ID CATEGORY THREADS "
		       "WHEN SEVERITY ERROR FLAGS PATTERN [SOURCE])";
	if (n > 9)
		return "more than 9 tab-separated fields";
	if (!valid_word(f[0]))
		return "the id holds characters other than letters, digits, "
		       "'-', '_' and '.'";
	if (!valid_word(f[1]))
		return "the category holds characters other than letters, "
		       "digits, '-', '_' and '.'";
	if (strcmp(f[2], "main") == 0)
		r->threads = TRIAGE_MAIN;
	else if (strcmp(f[2], "other") == 0)
		r->threads = TRIAGE_OTHER;
	else if (strcmp(f[2], "any") == 0)
		r->threads = TRIAGE_ANY;
	else
		return "threads is not main, other or any";
	if (!parse_when(f[3], &r->when) || !r->when.on)
		return "WHEN is not MEASURE>=NUMBER (total, call or count; "
		       "times in us, ms or s)";
	for (i = 0; i < 3; i++)
		if (strcmp(f[4], sevs[i]) == 0)
			break;
	if (i == 3)
		return "severity is not info, warn or error";
	r->severity = (enum triage_severity)i;
	if (!parse_when(f[5], &r->error))
		return "ERROR is not - or MEASURE>=NUMBER";
	if (!parse_flags(f[6], r))
		return "flags are not - or a comma-separated list of no-idle, "
		       "cause, blocked, hot-frame and hot-startup";
	if (r->kind == TRIAGE_BLOCKED && r->when.measure != TRIAGE_CALL)
		return "a blocked rule's WHEN is call>=TIME (one call's "
		       "exclusive wall less cpu)";
	if ((r->kind == TRIAGE_HOT_FRAME || r->kind == TRIAGE_HOT_STARTUP) &&
	    r->when.measure != TRIAGE_TOTAL)
		return "a hot rule's WHEN is total>=TIME (one method's "
		       "exclusive cpu summed)";
	if (pattern_compile(&re, f[7], REG_EXTENDED | REG_NOSUB, msg, size))
		return msg;
	regfree(&re);
	r->id = xstrdup(f[0]);
	r->category = xstrdup(f[1]);
	r->pattern = xstrdup(f[7]);
	r->source = xstrdup(n > 8 ? f[8] : "");
	return NULL;
}

bool
triage_rules_read(struct triage_rules *rules, const char *text, char *why,
                  size_t size)
{
	const char *p = text;
	size_t lineno = 0;

	while (*p) {
		size_t len = strcspn(p, "\n");
		char *line = xstrndup(p, len), *f[10], *s;
		struct triage_rule r, *old;
		const char *refused;
		char msg[200];
		size_t n;

		lineno++;
		p += len + (p[len] == '\n');
		if (len && line[len - 1] == '\r')
			line[len - 1] = '\0';
		for (s = line; *s == ' ' || *s == '\t'; s++)
			;
		if (!*s || *s == '#') {
			free(line);
			continue;
		}
		if (strcmp(s, "clear") == 0) {
			clear_rules(rules);
			free(line);
			continue;
		}
		n = split_fields(s, f, 10);
		refused = parse_rule(f, n, &r, msg, sizeof(msg));
		free(line);
		if (refused) {
			snprintf(why, size, "line %zu: %s", lineno, refused);
			return false;
		}
		old = triage_rules_find(rules, r.id);
		if (old) {
			rule_done(old);
			*old = r;
			continue;
		}
		UTIL_GROW(rules->rules, rules->cap, rules->count + 1);
		rules->rules[rules->count++] = r;
	}
	return true;
}

void
triage_rules_builtin(struct triage_rules *rules)
{
	char why[256];

	memset(rules, 0, sizeof(*rules));
	/* tests/unit-triage checks that the table reads. */
	if (!triage_rules_read(rules, triage_builtin_rules, why, sizeof(why)))
		abort();
}

bool
triage_rules_set_threshold(struct triage_rules *rules, const char *arg,
                           char *why, size_t size)
{
	const char *eq = strchr(arg, '=');
	struct triage_rule *r;
	char *id, *end;
	double v;

	if (!eq || eq == arg) {
		snprintf(why, size, "'%s' is not ID=MS", arg);
		return false;
	}
	id = xstrndup(arg, (size_t)(eq - arg));
	r = triage_rules_find(rules, id);
	free(id);
	if (!r) {
		snprintf(why, size, "no rule has the id of '%s'", arg);
		return false;
	}
	v = strtod(eq + 1, &end);
	if (end == eq + 1 || *end || !isfinite(v) || v < 0) {
		snprintf(why, size, "'%s': the threshold is not a number", arg);
		return false;
	}
	r->when.value = r->when.measure == TRIAGE_COUNT ? v : v * 1000;
	return true;
}

void
triage_rules_done(struct triage_rules *rules)
{
	clear_rules(rules);
	free(rules->rules);
	memset(rules, 0, sizeof(*rules));
}

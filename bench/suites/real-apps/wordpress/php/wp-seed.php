<?php
/**
 * `php wp-seed.php seed.json`: installs WordPress into the empty database and
 * adds the seed's users, categories, tags, posts, pages and comments, all
 * with fixed dates (bench/suites/real-apps/wordpress/wp-seed.ts holds the
 * data). Any failure prints one line and exits 1.
 */
define('WP_INSTALLING', true);
$_SERVER['HTTP_HOST'] = '127.0.0.1';
$_SERVER['REQUEST_URI'] = '/';
require __DIR__ . '/bench-env.php';
require '/usr/share/wordpress/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';
require_once ABSPATH . 'wp-admin/includes/user.php';

function apprentice_fail(string $what): void {
    fwrite(STDERR, "seeding failed: $what\n");
    exit(1);
}
function apprentice_check($result, string $what) {
    if (is_wp_error($result) || $result === 0 || $result === false) {
        apprentice_fail($what . (is_wp_error($result) ? ': ' . $result->get_error_message() : ''));
    }
    return $result;
}

$seed = json_decode(file_get_contents($argv[1]), true);
if (!is_array($seed)) apprentice_fail('cannot read ' . $argv[1]);

$installed = wp_install($seed['title'], 'admin', 'admin@lantern.test', false, '', 'apprentice-bench', '');
$admin = (int) $installed['user_id'];
// Start from an empty site: the installer's sample post, page and comment go.
foreach (get_posts(['post_type' => 'any', 'post_status' => 'any', 'numberposts' => -1]) as $p) wp_delete_post($p->ID, true);
foreach (get_comments(['status' => 'all']) as $c) wp_delete_comment($c->comment_ID, true);
update_option('blogdescription', $seed['tagline']);
update_option('timezone_string', 'UTC');
update_option('permalink_structure', '');
update_user_meta($admin, 'show_welcome_panel', 0);
update_user_meta($admin, 'dismissed_wp_pointers', 'theme_editor_notice,wp496_privacy');
wp_update_user(['ID' => $admin, 'display_name' => 'Site Admin', 'first_name' => 'Site', 'last_name' => 'Admin']);

$users = ['admin' => $admin];
foreach ($seed['users'] as $u) {
    $users[$u['login']] = apprentice_check(wp_insert_user([
        'user_login' => $u['login'], 'user_email' => $u['email'], 'user_pass' => 'apprentice-bench',
        'first_name' => $u['first'], 'last_name' => $u['last'], 'display_name' => $u['first'] . ' ' . $u['last'],
        'role' => $u['role'], 'user_registered' => '2026-01-05 09:00:00',
    ]), 'user ' . $u['login']);
}
$categories = [];
foreach ($seed['categories'] as $name) {
    $categories[$name] = (int) apprentice_check(wp_insert_term($name, 'category'), 'category ' . $name)['term_id'];
}
foreach ($seed['tags'] as $name) apprentice_check(wp_insert_term($name, 'post_tag'), 'tag ' . $name);
$posts = [];
foreach ($seed['posts'] as $i => $p) {
    $posts[$p['title']] = apprentice_check(wp_insert_post([
        'post_type' => $p['type'], 'post_title' => $p['title'], 'post_content' => $p['content'], 'post_status' => $p['status'],
        'post_author' => $users[$p['author']], 'post_date' => $p['date'], 'post_date_gmt' => $p['date'],
        'post_category' => array_map(fn ($c) => $categories[$c], $p['categories']), 'tags_input' => $p['tags'],
        'comment_status' => 'open',
    ], true), 'post ' . $p['title']);
}
foreach ($seed['comments'] as $c) {
    apprentice_check(wp_insert_comment([
        'comment_post_ID' => $posts[$c['post']], 'comment_author' => $c['author'], 'comment_author_email' => $c['email'],
        'comment_content' => $c['text'], 'comment_approved' => $c['approved'] ? 1 : 0,
        'comment_date' => $c['date'], 'comment_date_gmt' => $c['date'],
    ]), 'comment by ' . $c['author']);
}
echo "seeded\n";

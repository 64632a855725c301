//! GitHub Discussions over GraphQL: find the repository and its category,
//! create the discussion; and the prefilled new-discussion URL for when
//! there is no token.

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::{GitHub, ShareError};

/// A discussion category of a repository.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Category {
    pub id: String,
    pub name: String,
    pub slug: String,
}

/// Where a discussion goes.
#[derive(Clone, Debug, PartialEq)]
pub struct Target {
    pub repo: String,
    pub repository_id: String,
    pub category: Category,
}

/// A posted discussion.
#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
pub struct CreatedDiscussion {
    pub url: String,
    pub number: Option<u64>,
}

const FIND: &str = "query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { id discussionCategories(first: 100) { nodes { id name slug } } } }";

const CREATE: &str = "mutation($repositoryId: ID!, $categoryId: ID!, $title: String!, $body: String!) { createDiscussion(input: {repositoryId: $repositoryId, categoryId: $categoryId, title: $title, body: $body}) { discussion { url number } } }";

const VIEWER: &str = "query { viewer { login } }";

/// The account `token` signs in as (GitHub's `viewer`): a token is checked
/// with it before it is kept, so a mistyped, expired or made-up one is
/// refused at once and not at the first post.
pub fn signed_in_as(github: &GitHub, token: &str) -> Result<String, ShareError> {
    let value = github.graphql(token, VIEWER, json!({}))?;
    match value["data"]["viewer"]["login"].as_str() {
        Some(login) if is_login(login) => Ok(login.to_string()),
        _ => Err(ShareError::Unexpected {
            url: format!("{}/graphql", github.api),
            message: "it named no account (viewer.login)".into(),
        }),
    }
}

/// A GitHub login as GitHub allows it: 1 to 39 ASCII letters, digits and
/// single hyphens, not at either end. Anything else (a control character,
/// a lookalike) is not printed as an account's name.
pub fn is_login(text: &str) -> bool {
    (1..=39).contains(&text.len())
        && text.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        && !text.starts_with('-')
        && !text.ends_with('-')
        && !text.contains("--")
}

pub(crate) fn split_repo(repo: &str) -> Result<(&str, &str), ShareError> {
    match repo.split_once('/') {
        Some((owner, name)) if !owner.is_empty() && !name.is_empty() && !name.contains('/') => {
            Ok((owner, name))
        }
        _ => Err(ShareError::NoRepository(format!(
            "{repo} (expected OWNER/NAME)"
        ))),
    }
}

/// Finds the repository and the category named `category` (by name or
/// slug, ignoring case).
pub fn find_target(
    github: &GitHub,
    token: &str,
    repo: &str,
    category: &str,
) -> Result<Target, ShareError> {
    let (owner, name) = split_repo(repo)?;
    let value = match github.graphql(token, FIND, json!({ "owner": owner, "name": name })) {
        Err(ShareError::GraphQl(messages))
            if messages
                .iter()
                .any(|m| m.contains("Could not resolve to a Repository")) =>
        {
            return Err(ShareError::NoRepository(repo.to_string()));
        }
        other => other?,
    };
    let repository = &value["data"]["repository"];
    let Some(repository_id) = repository["id"].as_str() else {
        return Err(ShareError::NoRepository(repo.to_string()));
    };
    let categories: Vec<Category> =
        serde_json::from_value(repository["discussionCategories"]["nodes"].clone())
            .unwrap_or_default();
    let wanted = category.to_lowercase();
    match categories
        .iter()
        .find(|c| c.name.to_lowercase() == wanted || c.slug.to_lowercase() == wanted)
    {
        Some(c) => Ok(Target {
            repo: repo.to_string(),
            repository_id: repository_id.to_string(),
            category: c.clone(),
        }),
        None => Err(ShareError::NoCategory {
            repo: repo.to_string(),
            category: category.to_string(),
            available: categories
                .into_iter()
                .map(|c| crate::answer_text(&c.name, &[]))
                .collect(),
        }),
    }
}

/// Creates the discussion and returns its URL.
pub fn create_discussion(
    github: &GitHub,
    token: &str,
    target: &Target,
    title: &str,
    body: &str,
) -> Result<CreatedDiscussion, ShareError> {
    let value = github.graphql(
        token,
        CREATE,
        json!({
            "repositoryId": target.repository_id,
            "categoryId": target.category.id,
            "title": title,
            "body": body,
        }),
    )?;
    let discussion = &value["data"]["createDiscussion"]["discussion"];
    match discussion["url"].as_str() {
        Some(url) => Ok(CreatedDiscussion {
            url: url.to_string(),
            number: discussion["number"].as_u64(),
        }),
        None => Err(ShareError::Unexpected {
            url: format!("{}/graphql", github.api),
            message: "createDiscussion returned no discussion URL".into(),
        }),
    }
}

/// The Markdown report with the JSON report in a collapsed block.
pub fn compose_body(markdown: &str, json: &str) -> String {
    format!(
        "{}\n\n<details>\n<summary>The full report as JSON</summary>\n\n```json\n{}\n```\n\n</details>\n",
        markdown.trim_end(),
        json.trim_end()
    )
}

/// A new-discussion page with the category, title and body filled in.
pub fn new_discussion_url(
    web: &str,
    repo: &str,
    category: &str,
    title: &str,
    body: &str,
) -> String {
    let base = format!("{}/{repo}/discussions/new", web.trim_end_matches('/'));
    match reqwest::Url::parse_with_params(
        &base,
        [("category", category), ("title", title), ("body", body)],
    ) {
        Ok(url) => url.into(),
        // Not a URL at all (a malformed REPRISE_GITHUB_URL): say so where the link would be.
        Err(e) => format!("{base} ({e})"),
    }
}

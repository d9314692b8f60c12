//! One run of the robot, stage by stage (`pipeline`), with what it carries (`context`) and writes down (`record`), how it photographs and reads the cube (`capture`, `scanning`, `cube_kind`), how it solves and plans (`solving`), how it executes the plan (`execute`), how it can be stopped (`abort`, `interruption`, `link_news`), and how it ends (`error`, `outcome`).

pub(crate) mod abort;
pub(crate) mod capture;
pub(crate) mod context;
pub(crate) mod cube_kind;
pub(crate) mod error;
pub(crate) mod execute;
pub(crate) mod interruption;
pub(crate) mod link_news;
pub(crate) mod outcome;
pub(crate) mod pipeline;
pub(crate) mod record;
pub(crate) mod scanning;
pub(crate) mod solving;
